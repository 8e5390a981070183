/**
 * @module
 * The finding of a broadcast sweep (a chat room swept over its members, broadcast_points.ts): how many
 * members the target held, where its fan-out latency bent, what saturated above the bend (the target's
 * telemetry, knee_explained.ts), and what qualifies those numbers. Preconditions, one per statement:
 *
 * - "held N members": at N every member's handshake completed, none was lost, the room's requested rate
 *   was served, and loadlab's generator was not the limit; the largest such N at or below the knee (all
 *   points when nothing bent). A generator-bound point never counts: its numbers are loadlab's.
 * - "the knee at N members": the next point the generator did not limit is the first bent one
 *   (broadcast_points.ts); generator-bound points between the two are named as not judged. When only
 *   generator-bound points bent, the bend is said with that reason and no knee is claimed: the load
 *   generator receives every copy the target sends, so on a small machine it can run out of CPU first.
 * - "no knee between A and B": no point bent. "bent from the lowest member count": the first point bent
 *   already (it served short or lost members), so there is no knee in the range either.
 * - the qualifiers: every point the run verdict flags (generator-bound, dropped sends, errors,
 *   incomplete, unanswered at the stop), by member count.
 * Pure.
 */
import type { ResultsFile } from "../mod.ts";
import { formatDurationMs } from "../text_format.ts";
import { explainKnee } from "./knee_explained.ts";
import { type BroadcastCurve, broadcastCurves, type BroadcastPoint, firstBend } from "./broadcast_points.ts";
import { KEPT_UP_SHARE } from "../stats.ts";

/** How a curve's finding came out. */
export type BroadcastOutcome = "knee" | "no knee" | "generator" | "lowest" | "no fan-out";

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

const count = (n: number) => n.toLocaleString("en-US");

/** "50: 1.46 ms / 4.82 ms": a point's fan-out p50 / p99. */
function fanoutText(p: BroadcastPoint): string {
  if (!Number.isFinite(p.fanoutP99Ms)) return `${count(p.members)}: -`;
  return `${count(p.members)}: ${formatDurationMs(p.fanoutP50Ms)} / ${formatDurationMs(p.fanoutP99Ms)}`;
}

/** A point whose numbers are the target's holding every member. */
const heldCleanly = (p: BroadcastPoint) => p.held && p.servedShare >= KEPT_UP_SHARE && !p.generatorBound;

/** The most members held at or below `upTo` (all points when null). */
function heldMembers(points: BroadcastPoint[], upTo: number | null): number | null {
  const held = points.filter((p) => (upTo === null || p.members <= upTo) && heldCleanly(p));
  return held.length ? held[held.length - 1].members : null;
}

function qualifiersOf(points: BroadcastPoint[]): string | null {
  const flagged = points.filter((p) => p.flags.length > 0);
  if (flagged.length === 0) return null;
  return `Qualified by: ${
    flagged.map((p) => `${count(p.members)} members ${p.flags.join(", ")}`).join("; ")
  }.`;
}

/** " (200, 400 between them not judged: generator-bound)", or "" when none. */
function notJudgedText(points: BroadcastPoint[]): string {
  if (points.length === 0) return "";
  return ` (${points.map((p) => count(p.members)).join(", ")} between them not judged: generator-bound)`;
}

function rateText(curve: BroadcastCurve): string {
  const rate = curve.points[0].runs[0].targetRps;
  return rate ? ` at ${Number(rate.toPrecision(3))} messages/s` : "";
}

/** The finding of one curve. */
export function concludeCurve(curve: BroadcastCurve): BroadcastFinding {
  const points = curve.points;
  const range = `${count(points[0].members)} to ${count(points[points.length - 1].members)} members`;
  const head = `${curve.title}, a room${rateText(curve)} swept over ${range}`;
  const qualifiers = qualifiersOf(points);
  const base = { title: curve.title, kneeMembers: null, saturated: null, qualifiers };
  if (points.every((p) => !Number.isFinite(p.fanoutP99Ms))) {
    const held = heldMembers(points, null);
    return {
      ...base,
      outcome: "no fan-out",
      heldMembers: held,
      sentence: `${head}: no broadcast carried the target's send time ("sentAt", epoch ms), so no fan-out ` +
        `was timed; ${held === null ? "no point held every member" : `held ${count(held)} members`}.`,
    };
  }
  const fanout = `fan-out p50 / p99 by members ${points.map(fanoutText).join(", ")}`;
  const bend = firstBend(points);
  if (bend === null) {
    const held = heldMembers(points, null);
    const heldText = held === null ? "no point held every member cleanly" : `held ${count(held)} members`;
    return {
      ...base,
      outcome: "no knee",
      heldMembers: held,
      sentence: `${head}: ${heldText}; no knee between ${count(points[0].members)} and ` +
        `${count(points[points.length - 1].members)} members (${fanout}).`,
    };
  }
  const below = bend.knee;
  // Bent from the lowest point: no member count is below the bend to have held.
  const held = below === null ? null : heldMembers(points, below.members);
  const heldText = held === null
    ? "no point held every member cleanly"
    : `held ${bend.above.generatorBound ? "at least " : ""}${count(held)} members`;
  const where = below === null
    ? `from the lowest member count, ${count(bend.above.members)}`
    : `between ${count(below.members)} and ${count(bend.above.members)} members`;
  if (bend.above.generatorBound || below === null) {
    const why = bend.above.generatorBound
      ? `, but there loadlab's generator was the limit (generator-bound): no knee of the target's`
      : "";
    return {
      ...base,
      outcome: bend.above.generatorBound ? "generator" : "lowest",
      heldMembers: held,
      sentence: `${head}: ${heldText}; fan-out bent ${where} (${bend.why})${why} (${fanout}).`,
    };
  }
  const explained = explainKnee(curve.title, "members", { x: below.members, runs: below.runs }, {
    x: bend.above.members,
    runs: bend.above.runs,
  });
  return {
    ...base,
    outcome: "knee",
    kneeMembers: below.members,
    heldMembers: held,
    saturated: explained?.sentence ?? null,
    sentence: `${head}: ${heldText}; the knee at ${count(below.members)} members: above it, at ` +
      `${count(bend.above.members)}, ${bend.why}${notJudgedText(bend.notJudged)} (${fanout}).`,
  };
}

/** The findings of every broadcast sweep in the results. */
export function concludeBroadcasts(results: ResultsFile): BroadcastFinding[] {
  return broadcastCurves(results.runs).map(concludeCurve);
}
