/**
 * @module
 * Which runs a finding may judge the target on: one rule for the knee of every sweep (analysis.ts, its
 * explanation in knee/explained.ts), the bend of a broadcast sweep (broadcast_points.ts), a comparison
 * against the baseline (analysis.ts) and an expected direction (expect_verdict.ts), so no finding calls
 * the target's what loadlab's own numbers made. It reads the flags of the run verdict (run_verdict.ts):
 *
 * - never the target's (`loadlabFlags`: a compared side or an expected direction is not judged):
 *   `generator-bound` (loadlab's generator was the limit), `incomplete` and `aborted` (stopped early),
 *   `warm-up not reached`, `nothing measured`, `data ran out` and `steered` (not the load planned), and
 *   `flooded` (a WebSocket rule that took a flood's messages as answers: round trips of nothing);
 * - for a knee (`notJudgedFlags`), also these unless the runner found the server was the limit
 *   (`server-bound`): `dropped`, `lost`, `unanswered`, `errors` and `failed`. Without that finding, sends
 *   never made or never answered may be the generator's (a busy machine, its sockets) as much as the
 *   target's.
 *
 * Server errors, statuses that were no success and sessions that ended early are answers the target gave:
 * they never keep a point from being judged. A change between two sides (`judgeChange`: the analysis's
 * variants against the baseline, `report --compare`'s pair of runs, the `--baseline` gate's pairs) is
 * judged against noise (noise.ts) only when neither side has a `loadlabFlags` flag. Pure.
 */
import type { RunResult } from "../mod.ts";
import { runVerdict, type VerdictKind } from "./run_verdict.ts";
import { judgeNoise, type NoiseJudgement } from "./noise.ts";
import { type NoiseMetric, withinRunBlocker } from "./noise_samples.ts";
import type { NoiseVerdict } from "../stats.ts";

const NEVER_THE_TARGETS: ReadonlySet<VerdictKind> = new Set<VerdictKind>([
  "generator-bound",
  "incomplete",
  "aborted",
  "warm-up not reached",
  "nothing measured",
  "data ran out",
  "steered",
  "flooded",
]);

const TARGETS_WHEN_SERVER_BOUND: ReadonlySet<VerdictKind> = new Set<VerdictKind>([
  "dropped",
  "lost",
  "unanswered",
  "errors",
  "failed",
]);

function flagLabels(runs: RunResult[], keep: (kind: VerdictKind, run: RunResult) => boolean): string[] {
  const labels = runs.flatMap((run) =>
    runVerdict(run).flags.filter((f) => keep(f.kind, run)).map((f) => f.label)
  );
  return [...new Set(labels)];
}

/**
 * The flag labels of these runs that make their numbers loadlab's or a cut-short run's, never the
 * target's ("generator-bound", "warm-up not reached"); empty when none. What a comparison of two sides
 * and an expected direction decline on: a target's own overload (dropped or lost sends) is what many of
 * them are about, so it never blocks a side.
 */
export function loadlabFlags(runs: RunResult[]): string[] {
  return flagLabels(runs, (kind) => NEVER_THE_TARGETS.has(kind));
}

/**
 * The flag labels that keep these runs (one sweep point) from being judged for a knee; empty when it may
 * be. Stricter than `loadlabFlags`: a knee says where the target bent, so a point whose sends were
 * dropped or lost with no finding that the server was the limit cannot place it.
 */
export function notJudgedFlags(runs: RunResult[]): string[] {
  return flagLabels(
    runs,
    (kind, run) => NEVER_THE_TARGETS.has(kind) || (TARGETS_WHEN_SERVER_BOUND.has(kind) && !run.serverBound),
  );
}

/** A sweep point not judged, by its swept value, with why. */
export interface NotJudged {
  value: number;
  flags: string[];
}

/**
 * "400, 800 not judged: generator-bound", or one clause per reason when they differ ("400 not judged:
 * generator-bound; 800 not judged: dropped 5.0%"); "" when none. `count` formats a value.
 */
export function notJudgedText(points: NotJudged[], count = (x: number) => String(x)): string {
  const byWhy = new Map<string, number[]>();
  for (const p of points) {
    const why = p.flags.join(", ");
    byWhy.set(why, [...(byWhy.get(why) ?? []), p.value]);
  }
  return [...byWhy].map(([why, values]) => `${values.map(count).join(", ")} not judged: ${why}`).join("; ");
}

/**
 * Why a change between sides cannot be judged against noise: "new is generator-bound" for each side
 * (variant and its runs) with `loadlabFlags`; null when no side has any. A side loadlab limited differs
 * by loadlab's doing, so neither "beyond noise" nor "within noise" would be the target's.
 */
function sidesNotJudged(sides: Array<{ name: string; runs: RunResult[] }>): string | null {
  const why = sides.flatMap((s) => {
    const flags = loadlabFlags(s.runs);
    return flags.length ? [`${s.name} is ${flags.join(", ")}`] : [];
  });
  return why.length ? why.join(", ") : null;
}

/** One side of a change: its name as the sentence says it ("new", "baseline") and its runs. */
export interface Side {
  name: string;
  runs: RunResult[];
}

/**
 * A change of `metric` from `base` to `side`, judged by the one rule: `{ notJudged: "new is
 * generator-bound" }` when a side has `loadlabFlags` (`sidesNotJudged`, this side first), else the noise
 * rule's verdict (`judgeNoise`: `repeats`, or `within-run` for one run a side).
 */
export function judgeChange(
  rule: "repeats" | "within-run",
  side: Side,
  base: Side,
  metric: NoiseMetric,
): NoiseJudgement {
  // A load that changes its rate within the run can never be judged by its own intervals: said before any
  // flag, so the reason does not turn on how busy the machine was (a flag of either side is shown beside).
  const phased = rule === "within-run" && metric !== "success"
    ? [...side.runs, ...base.runs].map(withinRunBlocker).find((b) => b !== null)
    : undefined;
  if (phased) return { notJudged: phased };
  const flagged = sidesNotJudged([side, base]);
  return flagged ? { notJudged: flagged } : judgeNoise(rule, side.runs, base.runs, metric);
}

/** A change of one pair of runs in the words of `report --compare`: the verdict, and why none when none. */
export interface PairJudgement {
  /** "unknown" when not judged. */
  verdict: NoiseVerdict;
  /** Why it was not judged ("candidate is generator-bound", "too few repeats, ..."); null when it was. */
  notJudged: string | null;
}

/**
 * `report --compare`'s judgement of `metric` between a baseline run and the candidate run of the same
 * name: `judgeChange` by the within-run rule, the sides named "baseline" and "candidate".
 */
export function judgePair(before: RunResult, after: RunResult, metric: NoiseMetric): PairJudgement {
  const j = judgeChange("within-run", { name: "candidate", runs: [after] }, {
    name: "baseline",
    runs: [before],
  }, metric);
  if ("notJudged" in j) return { verdict: "unknown", notJudged: j.notJudged };
  return { verdict: j.beyond ? "beyond-noise" : "within-noise", notJudged: null };
}
