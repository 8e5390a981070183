/**
 * @module
 * A broadcast sweep read off its runs per member count, and the first point where fan-out bent. Fan-out grows
 * with the members by design, so a bend is growth much faster than theirs. Pure.
 */
import type { RunResult } from "../mod.ts";
import { KEPT_UP_SHARE, meanCi } from "../stats.ts";
import { runVerdict } from "./run_verdict.ts";
import { notJudgedFlags } from "./judged.ts";
import { sweepCurves } from "./analysis.ts";
import { formatSignificant } from "../text_format.ts";

/** The swept parameter that counts a room's members: one connection each. */
export const MEMBERS_PARAMETER = "load.connections";

/** Fan-out p99 growing this many times faster than the members between two points is a bend. */
const BEND_GROWTH_OVER_MEMBERS = 2;
/** ... and only once it is this many times the lowest point's, so jitter of a few ms is no bend. */
const BEND_OVER_LOWEST = 3;

/** One member count of a broadcast sweep (its repeats' means). */
export type BroadcastPoint = ReturnType<typeof pointOf>;

/** Where a curve bent: the knee before it, the first bent point, why, and the points not judged. */
export type Bend = NonNullable<ReturnType<typeof firstBend>>;

/** One variant × load swept over its members. */
export type BroadcastCurve = ReturnType<typeof broadcastCurves>[number];

const mean = (values: number[]) => meanCi(values).mean;

/** Error kinds of a member that could not join, or was dropped while it was in the room. */
const MEMBER_LOST = /^(connect|reset|closed-early|ws-.*)$/;

function lostMembers(run: RunResult): number {
  return Object.entries(run.errors).reduce((a, [kind, n]) => a + (MEMBER_LOST.test(kind) ? n ?? 0 : 0), 0);
}

function pointOf(members: number, runs: RunResult[]) {
  const served = runs.map((r) => (r.targetRps ? r.rps / r.targetRps : 1));
  return {
    members,
    runs,
    /** Fan-out percentiles in ms; NaN when no broadcast carried the target's send time. */
    fanoutP50Ms: mean(runs.map((r) => r.ws?.fanoutMs?.p50 ?? Number.NaN)),
    fanoutP99Ms: mean(runs.map((r) => r.ws?.fanoutMs?.p99 ?? Number.NaN)),
    /** Messages answered per second over the requested rate (1 when nothing was requested). */
    servedShare: mean(served),
    /** Every member's handshake completed and no connection failed. */
    held: runs.every((r) => (r.ws?.handshakes ?? 0) >= members && lostMembers(r) === 0),
    generatorBound: runs.some((r) => r.generatorBound),
    /** Why the point may not be judged (judged.ts: "generator-bound", "lost 10"); empty when it may. */
    notJudged: notJudgedFlags(runs),
    /** The run verdict's labels of the point's runs ("generator-bound", "unanswered 12 at the stop"). */
    flags: [...new Set(runs.flatMap((r) => runVerdict(r).flags.map((f) => f.label)))],
  };
}

/** Every WebSocket sweep over members in the results, as curves of points by member count. */
export function broadcastCurves(runs: RunResult[]) {
  const rooms = runs.filter((r) =>
    !r.probe && r.ws && r.sweep?.parameter === MEMBERS_PARAMETER && !r.sweep2 &&
    typeof r.sweep.value === "number"
  );
  return sweepCurves(rooms).map((curve) => {
    const members = [...new Set(curve.map((r) => r.sweep!.value as number))].sort((a, b) => a - b);
    const first = curve[0];
    return {
      title: [first.variant, first.load].filter((p) => p !== undefined).join(" / ") || "the sweep",
      variant: first.variant ?? null,
      load: first.load ?? null,
      points: members.map((m) => pointOf(m, curve.filter((r) => r.sweep!.value === m))),
    };
  });
}

const ms = (x: number) => `${formatSignificant(x)} ms`;

function bentWhy(p: BroadcastPoint, prev: BroadcastPoint | null, lowest: BroadcastPoint): string | null {
  if (p.servedShare < KEPT_UP_SHARE) {
    return `served ${Math.round(p.servedShare * 100)}% of the requested messages per second`;
  }
  if (!p.held) return "not every member stayed connected";
  if (prev === null || !Number.isFinite(p.fanoutP99Ms) || !Number.isFinite(prev.fanoutP99Ms)) return null;
  const latencyGrowth = p.fanoutP99Ms / Math.max(prev.fanoutP99Ms, 0.001);
  const memberGrowth = p.members / prev.members;
  const outgrew = latencyGrowth > BEND_GROWTH_OVER_MEMBERS * memberGrowth;
  if (outgrew && p.fanoutP99Ms > BEND_OVER_LOWEST * lowest.fanoutP99Ms) {
    const [latency, members] = [latencyGrowth, memberGrowth].map((x) => formatSignificant(x, 2));
    const [from, to] = [ms(prev.fanoutP99Ms), ms(p.fanoutP99Ms)];
    return `fan-out p99 went ${from} → ${to} (${latency}x) while the members grew ${members}x`;
  }
  return null;
}

function bendAmong(points: BroadcastPoint[]) {
  for (let i = 0; i < points.length; i++) {
    const why = bentWhy(points[i], points[i - 1] ?? null, points[0]);
    if (why !== null) return { knee: points[i - 1] ?? null, above: points[i], why };
  }
  return null;
}

/** The target's bend: the first bent judged point, else the first bent of all; null when none bent. */
export function firstBend(points: BroadcastPoint[]) {
  const judged = bendAmong(points.filter((p) => p.notJudged.length === 0));
  if (judged !== null) {
    const from = judged.knee?.members ?? -Infinity;
    const notJudged = points.filter((p) =>
      p.notJudged.length > 0 && p.members > from && p.members < judged.above.members
    );
    return { ...judged, notJudged };
  }
  const any = bendAmong(points);
  return any === null ? null : { ...any, notJudged: [] };
}
