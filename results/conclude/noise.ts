/**
 * @module
 * The noise rules shared by the stored analysis, `loadlab report --compare`, the `--baseline` gate and the
 * expected directions, one test for each kind of number:
 *
 * - success shares are proportions over the requests sent: a two-proportion test (success_share.ts),
 *   whatever the intervals did;
 * - rates and latencies of one run a side (`within-run`): batch means over the run's own intervals, from
 *   its stabilization point when it settled in its first half (the settled part), else over its final
 *   half with the drift there as part of the spread (a cold start's climb left out; a queue that keeps
 *   growing widens the spread instead of passing for a level). A batch is one second when the part judged
 *   holds four, else one interval (250 ms): a 2 s run's final half still has four. A load whose rate changes
 *   within the run (phases, a ramp: cache-burst's spike runs 1, 50 and 2 req/s in three seconds) has batches
 *   that differ by the load, so its rates and latencies are not judged within the run (`withinRunBlocker`),
 *   nor a difference beyond noise that the slower side's own waits for a core can explain (own_waits.ts: the
 *   load worker's and the target's, as each run recorded);
 * - with two repeats a side or more (`repeats`): Welch's t-test over the repeats, whose spread holds what
 *   differs from one run to the next.
 *
 * Every rule calls a difference beyond noise only when it is `BEYOND_NOISE_MIN_SE` standard errors or more
 * (and, for the t-based rules, outside their 95% intervals), within noise under `WITHIN_NOISE_MAX_SE`, and
 * says "not judged" with the number between: the samples of each rule are correlated, and a finding must
 * not come from the same target run twice. A verdict carries `how`: the test and its margin, for the
 * sentence that states it. `judgedChange` gives the numbers behind a verdict (the change and the margin
 * the rule weighed), so the `--baseline` gate shows none that contradict it. Pure; the metrics (the four
 * the analysis compares, and the mean latency an expectation may name), their values and the batch means
 * are noise_samples.ts's.
 */
import type { RunResult } from "../schema/results.ts";
import {
  BEYOND_NOISE_MIN_SE,
  type MeanCi,
  meanCi,
  noiseVerdict,
  overlapMargin,
  standardErrorsApart,
  welchDiff,
  welchTest,
  WITHIN_NOISE_MAX_SE,
} from "../stats.ts";
import { judgeShares, shareCounts, standardErrorsText, twoProportion } from "./success_share.ts";
import {
  batchesText,
  fromJudgedScale,
  judgedNoise,
  judgedScale,
  type NoiseMetric,
  runValue,
  sideBatches,
  withinRunBlocker,
} from "./noise_samples.ts";
import { judgeOwnWaits, type WaitsJudgement } from "./own_waits.ts";

/**
 * A noise judgement: beyond noise or not with the test and its margin (`how`; `waits`: how far past what
 * the slower side's own waits can make, where they were weighed), or why not judged.
 */
export type NoiseJudgement = { beyond: boolean; how: string; waits?: string } | { notJudged: string };

/** Fewer batches than this on a side give no within-run verdict (`noiseVerdict`'s own floor). */
const TOO_FEW = "too few repeats, or runs too short for three batches";

/**
 * The bar of the batch rule in standard errors: `BEYOND_NOISE_MIN_SE` where the batches are many, and as
 * much further as Student's t lies beyond the normal at their degrees of freedom where they are few.
 * Batch means see only the noise within each run, not what moved between the two runs (the machine's
 * other work), so their few degrees of freedom must not lower the bar: a run the machine starved
 * (answers in three of its six intervals) came out 5.3 standard errors from its twin.
 */
function batchBar(a: MeanCi, b: MeanCi): number {
  const { se, ci95 } = welchDiff(a, b);
  const t = ci95 !== null && se > 0 ? ci95 / se : 1.96;
  return BEYOND_NOISE_MIN_SE * Math.max(1, t / 1.96);
}

/** Why a difference between the two bars is not judged: the number said, and the bar it misses. */
const shortOfBar = (how: string, bar = BEYOND_NOISE_MIN_SE) =>
  `${how}: beyond noise needs ${Number(bar.toFixed(1))}`;

/**
 * The within-run verdict between two sets of runs (one run each for `report --compare`, a group's
 * repeats pooled otherwise): success by the two-proportion test; rates and latencies, after
 * `withinRunBlocker` on every run, by their batch means (see the module comment for the bars).
 */
export function withinRunJudgement(
  before: RunResult[],
  after: RunResult[],
  metric: NoiseMetric,
): NoiseJudgement {
  if (metric === "success") return judgeShares(before, after);
  const blocker = [...before, ...after].map(withinRunBlocker).find((b) => b !== null);
  if (blocker) return { notJudged: blocker };
  const [x, y] = [sideBatches(before, metric), sideBatches(after, metric)];
  const [a, b] = [judgedNoise(x, metric), judgedNoise(y, metric)];
  const verdict = noiseVerdict(a, b);
  if (verdict === "unknown") return { notJudged: TOO_FEW };
  const se = standardErrorsApart(a, b), bar = batchBar(a, b);
  const how = `by batch means, ${standardErrorsText(se)} apart, ${batchesText(x, y)}`;
  if (!(verdict === "beyond-noise" && se >= bar)) {
    return se < WITHIN_NOISE_MAX_SE ? { beyond: false, how } : { notJudged: shortOfBar(how, bar) };
  }
  // Batch means see no wait that held a whole run up: the run's own waits bound what they could move.
  const waits = ownWaitsOf(after, before, metric);
  if (waits?.explains) return { notJudged: `${how}, but ${waits.text}` };
  return waits ? { beyond: true, how: `${how}, ${waits.text}`, waits: waits.text } : { beyond: true, how };
}

/** What the slower side's own waits could move between the two levels the within-run rule compares. */
function ownWaitsOf(runs: RunResult[], baseRuns: RunResult[], metric: NoiseMetric): WaitsJudgement | null {
  const change = judgedChange("within-run", runs, baseRuns, metric);
  return judgeOwnWaits(baseRuns, runs, metric, change.base, change.base + change.diff);
}

/**
 * The verdict of the analysis's rule (`repeats`: Welch's t-test over the repeats, which needs two a side;
 * `within-run`: `withinRunJudgement`) on the runs of a group against the baseline group's; success by the
 * two-proportion test under either rule.
 */
export function judgeNoise(
  rule: "repeats" | "within-run",
  runs: RunResult[],
  baseRuns: RunResult[],
  metric: NoiseMetric,
): NoiseJudgement {
  if (rule === "within-run" || metric === "success") return withinRunJudgement(baseRuns, runs, metric);
  const scale = judgedScale(metric);
  const test = welchTest(
    baseRuns.map((r) => scale(runValue(r, metric))),
    runs.map((r) => scale(runValue(r, metric))),
  );
  if (test === null) return { notJudged: TOO_FEW };
  const count = runs.length === baseRuns.length
    ? `${runs.length} repeats each`
    : `${baseRuns.length} and ${runs.length} repeats`;
  const how = `by Welch's t-test over repeats, ${standardErrorsText(test.t)} apart, ${count}`;
  if (test.differs && test.t >= BEYOND_NOISE_MIN_SE) return { beyond: true, how };
  return test.t < WITHIN_NOISE_MAX_SE ? { beyond: false, how } : { notJudged: shortOfBar(how) };
}

/**
 * How far `runs` lie from `baseRuns` in `metric` (signed, on the judged scale), in standard errors worth
 * as much as the normal's: the rule's t divided by how far Student's t lies beyond the normal at its
 * degrees of freedom (the batch rule's own bar, `batchBar`), so that points of a sweep can be weighed
 * together (across_points.ts); null when the rule has nothing to measure there.
 */
export function normalErrors(
  rule: "repeats" | "within-run",
  runs: RunResult[],
  baseRuns: RunResult[],
  metric: NoiseMetric,
): number | null {
  if (metric === "success") {
    const test = twoProportion(shareCounts(baseRuns), shareCounts(runs));
    return test && test.sePct > 0 ? test.diffPct / test.sePct : null;
  }
  if (
    rule === "within-run" &&
    [...runs, ...baseRuns].some((r) => withinRunBlocker(r) !== null)
  ) return null;
  const scale = judgedScale(metric);
  const [a, b] = rule === "repeats"
    ? [baseRuns, runs].map((list) => meanCi(list.map((r) => scale(runValue(r, metric)))))
    : [sideBatches(baseRuns, metric), sideBatches(runs, metric)].map((x) => judgedNoise(x, metric));
  const { diff, se, ci95 } = welchDiff(a, b);
  if (ci95 === null || !(se > 0) || Math.min(a.n, b.n) < 3) return null;
  const z = diff / se / (batchBar(a, b) / BEYOND_NOISE_MIN_SE);
  // A gap the slower side's own waits can explain weighs nothing within the run: repeats must show it.
  const explained = rule === "within-run" && Math.abs(z) >= WITHIN_NOISE_MAX_SE &&
    ownWaitsOf(runs, baseRuns, metric)?.explains;
  return explained ? null : z;
}

/**
 * The statistic `judgedChange` compares, in words: "geometric mean of the batch means of interval p99s"
 * within a run, "geometric mean of the repeats' p99s" over repeats, the success share of all sends.
 */
export function judgedStatistic(rule: "repeats" | "within-run", metric: NoiseMetric): string {
  if (metric === "success") return "successes of all sends";
  const what = metric === "rps" ? "served req/s" : `${metric}s`;
  const mean = metric === "rps" ? "mean" : "geometric mean";
  return rule === "repeats"
    ? `${mean} of the repeats' ${what}`
    : `${mean} of the batch means of interval ${what}`;
}

/** A change as `judgeNoise` weighs it, in the metric's unit (success in percent, so changes in points). */
export interface JudgedChange {
  /** The baseline's level: the mean on the judged scale turned back (a geometric mean for latency). */
  base: number;
  /**
   * The change from `base`, and the interval [low, high] it must leave to be beyond noise; null when noise
   * was not measured.
   */
  diff: number;
  ci95: [number, number] | null;
}

/** The margin a difference must pass: the test's 95% interval, and never under `bar` standard errors. */
function barOf(interval: number | null, se: number, bar: number): number | null {
  return interval === null ? null : Math.max(interval, bar * (Number.isFinite(se) ? se : 0));
}

/**
 * The numbers behind `judgeNoise`'s verdict on `runs` against `baseRuns`, so that what a reader is shown
 * never contradicts it: the difference of the two sides' means on the judged scale (`judgedScale`) with
 * the margin the rule compares it with (`barOf`: `repeats`: Welch's 95% interval; `within-run`: the two
 * sides' half-widths together; success: the pooled shares and their standard error), both turned back
 * into the metric's unit. Beyond noise exactly when the interval excludes zero; for latency the interval
 * is a ratio's, so it is not symmetric around `diff`. Preconditions (`withinRunBlocker`) are not checked.
 */
export function judgedChange(
  rule: "repeats" | "within-run",
  runs: RunResult[],
  baseRuns: RunResult[],
  metric: NoiseMetric,
): JudgedChange {
  if (metric === "success") {
    const [x, y] = [shareCounts(baseRuns), shareCounts(runs)];
    const test = twoProportion(x, y);
    const base = x.sent ? (x.succeeded / x.sent) * 100 : Number.NaN;
    if (test === null) return { base, diff: Number.NaN, ci95: null };
    const bar = BEYOND_NOISE_MIN_SE * test.sePct;
    return { base, diff: test.diffPct, ci95: [test.diffPct - bar, test.diffPct + bar] };
  }
  const scale = judgedScale(metric);
  const [a, b] = rule === "repeats"
    ? [baseRuns, runs].map((list) => meanCi(list.map((r) => scale(runValue(r, metric)))))
    : [sideBatches(baseRuns, metric), sideBatches(runs, metric)].map((x) => judgedNoise(x, metric));
  const { se, ci95 } = welchDiff(a, b);
  const margin = rule === "repeats"
    ? barOf(ci95, se, BEYOND_NOISE_MIN_SE)
    : barOf(overlapMargin(a, b), se, batchBar(a, b));
  const back = fromJudgedScale(metric), base = back(a.mean);
  const from = (x: number) => back(x) - base;
  return {
    base,
    diff: from(b.mean),
    ci95: margin === null ? null : [from(b.mean - margin), from(b.mean + margin)],
  };
}
