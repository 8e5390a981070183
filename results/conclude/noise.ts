/**
 * @module
 * The noise rules of the analysis, `report --compare`, `--baseline` and `expect:`: success shares by a
 * two-proportion z-test; one run a side (`within-run`) by batch means bounded by its own waits; two repeats
 * or more by Welch's t-test. Beyond noise needs `BEYOND_NOISE_MIN_SE` standard errors. Pure.
 */
import type { RunResult } from "../schema/results.ts";
import {
  BEYOND_NOISE_MIN_SE,
  type MeanCi,
  meanCi,
  overlapMargin,
  standardErrorsApart,
  welchDiff,
  WITHIN_NOISE_MAX_SE,
} from "../stats.ts";
import { sumValues } from "../interval_counts.ts";
import { formatCount } from "../text_format.ts";
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
import { judgeOwnWaits } from "./own_waits.ts";
import { durationText } from "../../validation/duration.ts";

/** How a change is weighed: between repeats, or by batch means of each run's own intervals. */
export type NoiseRule = "repeats" | "within-run";

/** Beyond noise or not, with the test and its margin (`how`) and the own-waits margin; or why not judged. */
export type NoiseJudgement = { beyond: boolean; how: string; waits?: string } | { notJudged: string };

/** Why a side holds under three batches, with how long a run must be: three of its intervals at least. */
function shortRuns(runs: RunResult[], a: number, b: number): string {
  if (a + b === 0 && runs.every((r) => r.intervals.length >= 3)) {
    return "its intervals hold no latency (an endpoint's is kept for the whole run): repeats (repeats: 3)";
  }
  const intervalMs = Math.max(
    ...runs.map((r) => Number(r.config.intervalMs ?? r.intervals[0]?.durationMs ?? 1000)),
  );
  const ms = durationText(Math.ceil(3 * intervalMs));
  return `runs too short for three batches (${a} and ${b}): a run needs 3 intervals, ${ms} or more after its ` +
    `warm-up at --interval ${durationText(intervalMs)} (-d ${ms}, or a larger -n), or repeats (repeats: 3)`;
}

/** The batch rule's bar in standard errors, raised by Student's t over the normal for few batches. */
function batchBar(a: MeanCi, b: MeanCi): number {
  const { se, ci95 } = welchDiff(a, b);
  const t = ci95 !== null && se > 0 ? ci95 / se : 1.96;
  return BEYOND_NOISE_MIN_SE * Math.max(1, t / 1.96);
}

/** A test `se` standard errors apart short of `bar`: within noise, or not judged with why; null: passed. */
function shortOfBeyond(differs: boolean, se: number, bar: number, how: string, why = "") {
  if (differs && se >= bar) return null;
  if (se < WITHIN_NOISE_MAX_SE) return { beyond: false, how };
  return { notJudged: `${how}: beyond noise needs ${Number(bar.toFixed(1))}${why}` };
}

function withinRunJudgement(before: RunResult[], after: RunResult[], metric: NoiseMetric): NoiseJudgement {
  if (metric === "success") return judgeShares(before, after);
  const blocker = withinRunBlocker([...before, ...after]);
  if (blocker) return { notJudged: blocker };
  const [x, y] = [sideBatches(before, metric), sideBatches(after, metric)];
  const [a, b] = [judgedNoise(x, metric), judgedNoise(y, metric)];
  const margin = overlapMargin(a, b);
  if (margin === null) return { notJudged: shortRuns([...before, ...after], a.n, b.n) };
  const se = standardErrorsApart(a, b);
  const how = `by batch means, ${standardErrorsText(se)} apart, ${batchesText(x, y)}`;
  // Batch means see no wait that held a whole run up: the run's own waits bound what they could move.
  // Beyond noise needs the two 95% CIs apart (conservative: roughly p < 0.01) and the bar besides.
  return shortOfBeyond(Math.abs(b.mean - a.mean) > margin, se, batchBar(a, b), how) ??
    pastOwnWaits("within-run", after, before, metric, how);
}

/** A gap beyond noise (`how`), unless the slower side's own waits for a core can make it. */
function pastOwnWaits(rule: NoiseRule, runs: RunResult[], base: RunResult[], metric: NoiseMetric, how = "") {
  const change = judgedChange(rule, runs, base, metric);
  const waits = judgeOwnWaits(base, runs, metric, change.base, change.base + change.diff, rule === "repeats");
  if (waits?.explains) return { notJudged: `${how}, but ${waits.text}` };
  return waits ? { beyond: true, how: `${how}, ${waits.text}`, waits: waits.text } : { beyond: true, how };
}

/** The verdict of `rule` on a group's runs against the baseline group's (repeats: Welch's t-test). */
export function judgeNoise(
  rule: NoiseRule,
  runs: RunResult[],
  baseRuns: RunResult[],
  metric: NoiseMetric,
): NoiseJudgement {
  if (rule === "within-run" || metric === "success") return withinRunJudgement(baseRuns, runs, metric);
  const [base, mine] = judgedSides("repeats", runs, baseRuns, metric);
  const { diff, ci95 } = welchDiff(base, mine), t = standardErrorsApart(base, mine);
  if (ci95 === null) return { notJudged: "a side has under 2 repeats with a value: repeats (repeats: 3)" };
  const count = eachText(baseRuns.length, runs.length, "repeats");
  const how = `by Welch's t-test over repeats, ${standardErrorsText(t)} apart, ${count}`;
  // A load that held every repeat of one side is no spread of the repeats: its own waits bound it too.
  return shortOfBeyond(Math.abs(diff) > ci95, t, BEYOND_NOISE_MIN_SE, how) ??
    pastOwnWaits("repeats", runs, baseRuns, metric, how);
}

/** The baseline's and the runs' levels on the judged scale: over the repeats, or over batch means. */
function judgedSides(rule: NoiseRule, runs: RunResult[], baseRuns: RunResult[], metric: NoiseMetric) {
  const scale = judgedScale(metric);
  return rule === "repeats"
    ? [baseRuns, runs].map((list) => meanCi(list.map((r) => scale(runValue(r, metric)))))
    : [sideBatches(baseRuns, metric), sideBatches(runs, metric)].map((x) => judgedNoise(x, metric));
}

/** How far `runs` lie from `baseRuns` in normal standard errors (signed); null when unmeasured. */
export function normalErrors(rule: NoiseRule, runs: RunResult[], baseRuns: RunResult[], metric: NoiseMetric) {
  if (metric === "success") {
    const test = twoProportion(shareCounts(baseRuns), shareCounts(runs));
    return test && test.sePct > 0 ? test.diffPct / test.sePct : null;
  }
  if (rule === "within-run" && withinRunBlocker([...runs, ...baseRuns]) !== null) return null;
  const [a, b] = judgedSides(rule, runs, baseRuns, metric);
  const { diff, se, ci95 } = welchDiff(a, b);
  if (ci95 === null || !(se > 0) || Math.min(a.n, b.n) < 3) return null;
  const z = diff / se / (batchBar(a, b) / BEYOND_NOISE_MIN_SE);
  // A gap the slower side's own waits can explain weighs nothing within the run: repeats must show it.
  const explained = rule === "within-run" && Math.abs(z) >= WITHIN_NOISE_MAX_SE &&
    "notJudged" in pastOwnWaits(rule, runs, baseRuns, metric);
  return explained ? null : z;
}

/** The statistic `judgedChange` compares, in words ("geometric mean of the batch means of interval p99s"). */
function judgedStatistic(rule: NoiseRule, metric: NoiseMetric): string {
  if (metric === "success") return "successes of all sends";
  const what = metric === "rps" ? "served req/s" : `${metric}s`;
  return `geometric mean of ${rule === "repeats" ? "the repeats'" : "the batch means of interval"} ${what}`;
}

/** A change as `judgeNoise` weighs it, in the metric's unit (success in percent, so changes in points). */
interface JudgedChange {
  /** The baseline's level: the mean on the judged scale turned back (a geometric mean for latency). */
  base: number;
  /** The change from `base`, and the [low, high] it must leave to be beyond noise (null: unmeasured). */
  diff: number;
  ci95: [number, number] | null;
  /** What `base` and `base + diff` are ("geometric mean of the batch means of interval p99s"). */
  statistic: string;
}

/** The margin a difference must pass: the test's 95% interval, and never under `bar` standard errors. */
function barOf(interval: number | null, se: number, bar: number): number | null {
  return interval === null ? null : Math.max(interval, bar * (Number.isFinite(se) ? se : 0));
}

/** The numbers behind `judgeNoise`'s verdict, in the metric's unit; `withinRunBlocker` is the caller's. */
export function judgedChange(
  rule: NoiseRule,
  runs: RunResult[],
  baseRuns: RunResult[],
  metric: NoiseMetric,
): JudgedChange {
  if (metric === "success") {
    const [x, y] = [shareCounts(baseRuns), shareCounts(runs)];
    const test = twoProportion(x, y);
    const base = x.sent ? (x.succeeded / x.sent) * 100 : Number.NaN;
    const statistic = judgedStatistic(rule, metric);
    if (test === null) return { base, diff: Number.NaN, ci95: null, statistic };
    const bar = BEYOND_NOISE_MIN_SE * test.sePct;
    return { base, diff: test.diffPct, ci95: [test.diffPct - bar, test.diffPct + bar], statistic };
  }
  const [a, b] = judgedSides(rule, runs, baseRuns, metric);
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
    statistic: judgedStatistic(rule, metric),
  };
}

/** A side's requests: sent (answered or failed), and of them those answered 2xx/3xx. */
interface ShareCounts {
  sent: number;
  succeeded: number;
}

/** The requests of these runs pooled, as their `successRate` counts them (judged answers plus errors). */
function shareCounts(runs: RunResult[]): ShareCounts {
  let sent = 0, succeeded = 0;
  for (const run of runs) {
    const n = run.requests - (run.unjudged ?? 0) + sumValues(run.errors);
    sent += n;
    succeeded += Math.round(run.successRate * n);
  }
  return { sent, succeeded };
}

/** The two-proportion z-test of `b` against `a` (points, pooled SE, z); null when a side sent nothing. */
function twoProportion(a: ShareCounts, b: ShareCounts) {
  if (a.sent === 0 || b.sent === 0) return null;
  const pa = a.succeeded / a.sent, pb = b.succeeded / b.sent;
  const pooled = (a.succeeded + b.succeeded) / (a.sent + b.sent);
  const sePct = Math.sqrt(pooled * (1 - pooled) * (1 / a.sent + 1 / b.sent)) * 100;
  const diffPct = (pb - pa) * 100;
  const z = sePct > 0 ? Math.abs(diffPct) / sePct : diffPct === 0 ? 0 : Infinity;
  return { diffPct, sePct, z };
}

/** "500 requests each", "500 and 625 requests": how many of `what` each side weighed. */
function eachText(a: number, b: number, what: string): string {
  return a === b ? `${formatCount(a)} ${what} each` : `${formatCount(a)} and ${formatCount(b)} ${what}`;
}

/** "22 standard errors", "more than 100 standard errors" (a difference with no spread at all). */
export function standardErrorsText(z: number): string {
  if (!Number.isFinite(z) || z > 100) return "more than 100 standard errors";
  return `${z.toFixed(z >= 10 ? 0 : 1)} standard errors`;
}

/** The verdict of the two-proportion test on the success share of `runs` against `baseRuns`. */
function judgeShares(baseRuns: RunResult[], runs: RunResult[]): NoiseJudgement {
  const a = shareCounts(baseRuns), b = shareCounts(runs);
  const test = twoProportion(a, b);
  if (test === null) return { notJudged: "a side sent no request after its warm-up" };
  const count = eachText(a.sent, b.sent, "requests");
  const how = `by a two-proportion test, ${standardErrorsText(test.z)} apart, ${count}`;
  const why = " (a run's requests fail together, in stalls and runs of timeouts)";
  return shortOfBeyond(true, test.z, BEYOND_NOISE_MIN_SE, how, why) ?? { beyond: true, how };
}
