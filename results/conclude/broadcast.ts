/**
 * @module
 * The finding of a broadcast sweep (broadcast_points.ts): members held, the knee where fan-out bent, what
 * saturated above it, flagged points. A generator-bound point never counts (it receives every copy). Pure.
 */
import type { ResultsFile } from "../mod.ts";
import { formatCount, formatDurationMs, formatSignificant } from "../text_format.ts";
import { explainKnee } from "./knee/explained.ts";
import {
  type Bend,
  type BroadcastCurve,
  broadcastCurves,
  type BroadcastPoint,
  firstBend,
} from "./broadcast_points.ts";
import { KEPT_UP_SHARE } from "../stats.ts";
import { notJudgedText } from "./judged.ts";

type BroadcastOutcome = "knee" | "no knee" | "generator" | "not judged" | "lowest" | "no fan-out";

export interface BroadcastFinding {
  /** "deno / room" */
  title: string;
  outcome: BroadcastOutcome;
  /** The members at the knee; null unless `outcome` is "knee". */
  kneeMembers: number | null;
  /** The most members held (see the module comment); null when no point qualifies. */
  heldMembers: number | null;
  /** The answer: members held, fan-out per member count, the knee or why there is none. */
  sentence: string;
  /** What saturated above the knee, from the target's telemetry; null without a knee or telemetry. */
  saturated: string | null;
  /** The flagged points, "Qualified by: …"; null when no point is flagged. */
  qualifiers: string | null;
}

/** "50: 1.46 ms / 4.82 ms": a point's fan-out p50 / p99. */
function fanoutText(p: BroadcastPoint): string {
  if (!Number.isFinite(p.fanoutP99Ms)) return `${formatCount(p.members)}: -`;
  return `${formatCount(p.members)}: ${formatDurationMs(p.fanoutP50Ms)} / ${formatDurationMs(p.fanoutP99Ms)}`;
}

/** A point whose numbers are the target's holding every member. */
const heldCleanly = (p: BroadcastPoint) =>
  p.held && p.servedShare >= KEPT_UP_SHARE && p.notJudged.length === 0;

/** The most members held at or below `upTo` (all points when null). */
function heldMembers(points: BroadcastPoint[], upTo: number | null): number | null {
  const held = points.filter((p) => (upTo === null || p.members <= upTo) && heldCleanly(p));
  return held.length ? held[held.length - 1].members : null;
}

function qualifiersOf(points: BroadcastPoint[]): string | null {
  const flagged = points.filter((p) => p.flags.length > 0);
  if (flagged.length === 0) return null;
  const each = flagged.map((p) => `${formatCount(p.members)} members ${p.flags.join(", ")}`);
  return `Qualified by: ${each.join("; ")}.`;
}

/** " (between them 200, 400 not judged: generator-bound)", or "" when none. */
function notJudgedBetween(points: BroadcastPoint[]): string {
  if (points.length === 0) return "";
  const between = notJudgedText(points.map((p) => ({ value: p.members, flags: p.notJudged })), formatCount);
  return ` (between them ${between})`;
}

/** Why a bend at a point not judged is no knee of the target's. */
function notTheTargets(above: BroadcastPoint): string {
  if (above.generatorBound) {
    return ", but there loadlab's generator was the limit (generator-bound): no knee of the target's";
  }
  const why = above.notJudged.join(", ");
  return `, but its numbers there are not the target's alone (${why}): no knee of the target's`;
}

function rateText(curve: BroadcastCurve): string {
  const rate = curve.points[0].runs[0].targetRps;
  return rate ? ` at ${formatSignificant(rate)} messages/s` : "";
}

/** What every finding of a curve starts from: its title, its first words, its qualifiers. */
interface Context {
  base: Pick<BroadcastFinding, "title" | "kneeMembers" | "saturated" | "qualifiers">;
  head: string;
  /** "fan-out p50 / p99 by members 50: …, 200: …" */
  fanout: string;
  points: BroadcastPoint[];
}

const heldWords = (held: number | null, atLeast = false) =>
  held === null
    ? "no point held every member cleanly"
    : `held ${atLeast ? "at least " : ""}${formatCount(held)} members`;

/** A curve that bent: the knee with what saturated above it, or why the bend is not the target's knee. */
function bentFinding(c: Context, bend: Bend): BroadcastFinding {
  const below = bend.knee, above = bend.above;
  // Bent from the lowest point: no member count is below the bend to have held.
  const held = below === null ? null : heldMembers(c.points, below.members);
  const unjudged = above.notJudged.length > 0;
  if (unjudged || below === null) {
    const where = below === null
      ? `from the lowest member count, ${formatCount(above.members)}`
      : `between ${formatCount(below.members)} and ${formatCount(above.members)} members`;
    const why = unjudged ? notTheTargets(above) : "";
    return {
      ...c.base,
      outcome: above.generatorBound ? "generator" : unjudged ? "not judged" : "lowest",
      heldMembers: held,
      sentence: `${c.head}: ${heldWords(held, unjudged)}; fan-out bent ${where} (${bend.why})${why} ` +
        `(${c.fanout}).`,
    };
  }
  const [at, past] = [below, above].map((p) => ({ x: p.members, runs: p.runs }));
  const explained = explainKnee(c.base.title, "members", at, past);
  return {
    ...c.base,
    outcome: "knee",
    kneeMembers: below.members,
    heldMembers: held,
    saturated: explained?.sentence ?? null,
    sentence:
      `${c.head}: ${heldWords(held)}; the knee at ${formatCount(below.members)} members: above it, at ` +
      `${formatCount(above.members)}, ${bend.why}${notJudgedBetween(bend.notJudged)} (${c.fanout}).`,
  };
}

function concludeCurve(curve: BroadcastCurve): BroadcastFinding {
  const points = curve.points;
  const [lowest, highest] = [points[0].members, points[points.length - 1].members].map(formatCount);
  const c: Context = {
    base: { title: curve.title, kneeMembers: null, saturated: null, qualifiers: qualifiersOf(points) },
    head: `${curve.title}, a room${rateText(curve)} ` +
      (points.length === 1 ? `of ${lowest} members` : `swept over ${lowest} to ${highest} members`),
    fanout: `fan-out p50 / p99 by members ${points.map(fanoutText).join(", ")}`,
    points,
  };
  const held = heldMembers(points, null);
  if (points.every((p) => !Number.isFinite(p.fanoutP99Ms))) {
    return {
      ...c.base,
      outcome: "no fan-out",
      heldMembers: held,
      sentence:
        `${c.head}: no broadcast carried the target's send time ("sentAt", epoch ms), so no fan-out ` +
        `was timed; ${heldWords(held)}.`,
    };
  }
  const bend = firstBend(points);
  if (bend !== null) return bentFinding(c, bend);
  const none = points.length === 1
    ? "one member count swept, so no knee to find"
    : `no knee between ${lowest} and ${highest} members`;
  return {
    ...c.base,
    outcome: "no knee",
    heldMembers: held,
    sentence: `${c.head}: ${heldWords(held)}; ${none} (${c.fanout}).`,
  };
}

export function concludeBroadcasts(results: ResultsFile): BroadcastFinding[] {
  return broadcastCurves(results.runs).map(concludeCurve);
}
