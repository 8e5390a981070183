/**
 * @module
 * The within-run noise rule shared by `loadlab report --compare` and the stored analysis when an
 * experiment has one repeat: after a run's stabilization point its intervals are averaged into
 * one-second batches (batch means, because neighbouring 250 ms intervals are correlated), and a change
 * is beyond noise when the 95% confidence intervals of the two sides' batch means do not overlap
 * (`noiseVerdict`). Batch means estimate noise only where the intervals scatter around one level, so the
 * rule states its preconditions (`withinRunBlocker`) and judges nothing where they fail: a load whose rate
 * changes within the run (phases, a ramp: cache-burst's spike runs 1, 50 and 2 req/s in three seconds, so
 * its batches differ by the load, and a 20x p99 gap read as "within noise") and a run that never settled
 * (a growing queue drifts instead of scattering). `judgedChange` gives the numbers behind a verdict (the
 * change and the interval the rule weighed), so the `--baseline` gate shows none that contradict it.
 * Pure; the metrics are the four the analysis compares, and the mean latency an expectation may name.
 */
import type { IntervalResult, RunResult } from "../schema.ts";
import { servedRps } from "./served_rate.ts";
import {
  batchMeans,
  type IntervalSample,
  type MeanCi,
  meanCi,
  MIN_STABILIZATION_INTERVALS,
  noiseVerdict,
  overlapMargin,
  standardErrorsApart,
  welchDiff,
  welchTest,
  WITHIN_NOISE_MAX_SE,
} from "../stats.ts";

/** The metrics compared between runs and groups; `success` is in percent. */
export const COMPARE_METRICS = ["rps", "p50", "p99", "success"] as const;
export type CompareMetric = typeof COMPARE_METRICS[number];
/** What the noise rules can judge: the compared metrics and the mean latency (an expectation's). */
export type NoiseMetric = CompareMetric | "mean";

/** Length of one batch in the batch-means noise estimate. */
export const BATCH_MS = 1000;

/** One interval's value of a metric (NaN when the interval says nothing about it). */
export function intervalValue(iv: IntervalResult, metric: NoiseMetric): number {
  switch (metric) {
    case "mean":
      return iv.mean;
    case "rps": // served within the window, as the achieved rate: the drain left out
      return servedRps(iv.requests, iv.drained ?? 0, iv.durationMs / 1000);
    case "p50":
      return iv.p50;
    case "p99":
      return iv.p99;
    case "success": {
      const sent = iv.requests + iv.errors;
      return sent > 0 ? ((iv.requests - iv.failedStatus) / sent) * 100 : Number.NaN;
    }
  }
}

/** A whole run's value of a metric (success in percent). */
export function runValue(run: RunResult, metric: NoiseMetric): number {
  if (metric === "rps") return run.rps;
  if (metric === "success") return run.successRate * 100;
  return run.latencyMs[metric];
}

function batchesOf(run: RunResult, metric: NoiseMetric): number[] {
  const samples: IntervalSample[] = run.intervals.map((iv) => ({
    startMs: iv.startMs,
    durationMs: iv.durationMs,
    value: intervalValue(iv, metric),
    // Throughput batches weigh every interval alike; latency batches weigh by requests.
    weight: metric === "rps" ? 1 : iv.requests + (metric === "success" ? iv.errors : 0),
  }));
  return batchMeans(samples, run.stabilizedAtMs ?? 0, BATCH_MS);
}

/**
 * Batch means of one metric after each run's stabilization point (the whole run if it never settled),
 * pooled over the runs given (one run, or a group whose repeats are too few for their own spread).
 */
export function runNoise(runs: RunResult | RunResult[], metric: NoiseMetric): MeanCi {
  const list = Array.isArray(runs) ? runs : [runs];
  return meanCi(list.flatMap((run) => batchesOf(run, metric)));
}

/**
 * The scale a metric's noise is judged on: latency on a log scale, because its noise is multiplicative
 * (a stall doubles a p99, it does not add 5 ms) and one slow repeat or batch among fast ones would
 * otherwise widen the spread until a 20x gap reads as noise; throughput and success as they are.
 */
function judgedScale(metric: NoiseMetric): (x: number) => number {
  return metric === "rps" || metric === "success" ? (x) => x : (x) => (x > 0 ? Math.log(x) : Number.NaN);
}

/** A judged-scale value back in the metric's unit: the inverse of `judgedScale`. */
function fromJudgedScale(metric: NoiseMetric): (x: number) => number {
  return metric === "rps" || metric === "success" ? (x) => x : Math.exp;
}

/** `runNoise` on the scale the metric is judged on. */
function judgedNoise(runs: RunResult[], metric: NoiseMetric): MeanCi {
  return meanCi(runs.flatMap((run) => batchesOf(run, metric)).map(judgedScale(metric)));
}

/** Whether the run's load asked for one rate throughout: no phases of other rates, no ramp. */
function steadyLoad(run: RunResult): boolean {
  const phases = run.config.phases;
  if (!Array.isArray(phases) || phases.length === 0) return true;
  const rates = phases.flatMap((
    p: { ratePerSec?: number; rampToPerSec?: number },
  ) => [p.ratePerSec, p.rampToPerSec ?? p.ratePerSec]);
  return new Set(rates).size === 1;
}

/**
 * Why a run's own intervals cannot tell its noise, or null when they can. Preconditions of the within-run
 * rule: the load asked for one rate throughout (else the batches differ by the load), and a run with
 * intervals enough to tell settled (`stabilizedAtMs`; else they drift with a growing queue or a warm-up
 * that never ended).
 */
export function withinRunBlocker(run: RunResult): string | null {
  if (!steadyLoad(run)) {
    const load = run.load ? `load ${run.load}` : `${run.name}'s load`;
    return `the ${load} changes its rate within the run, so its intervals differ by the load, not by noise`;
  }
  // A run with too few busy intervals to tell (a sparse one) is left to the batch count: its one-second
  // batches still scatter around one level under a steady load.
  const busy = run.intervals.filter((iv) => iv.requests > 0).length;
  if (run.stabilizedAtMs !== null || busy < MIN_STABILIZATION_INTERVALS) return null;
  return `${run.name} never settled, so its intervals drift rather than scatter`;
}

/** A noise judgement: beyond noise or not, or why it could not be judged. */
export type NoiseJudgement = { beyond: boolean } | { notJudged: string };

/** Fewer batches than this on a side give no within-run verdict (`noiseVerdict`'s own floor). */
const TOO_FEW = "too few repeats, or runs too short for three one-second batches";

/** Why a change few samples could not tell from noise is not "within noise" (`WITHIN_NOISE_MAX_SE`). */
const tooFewFor = (what: string, se: number) =>
  `${what} cannot tell a difference of ${
    se === Infinity ? "many" : se.toFixed(1)
  } standard errors from noise`;

/**
 * The within-run verdict between two sets of runs (one run each for `report --compare`, a group's
 * repeats pooled otherwise), after the preconditions of `withinRunBlocker` on every run. Overlapping
 * CIs are "within noise" only when the means are less than `WITHIN_NOISE_MAX_SE` standard errors apart:
 * a wider gap that a few batches cannot resolve is not judged.
 */
export function withinRunJudgement(
  before: RunResult[],
  after: RunResult[],
  metric: NoiseMetric,
): NoiseJudgement {
  const blocker = [...before, ...after].map(withinRunBlocker).find((b) => b !== null);
  if (blocker) return { notJudged: blocker };
  const [a, b] = [judgedNoise(before, metric), judgedNoise(after, metric)];
  const verdict = noiseVerdict(a, b);
  if (verdict === "unknown") return { notJudged: TOO_FEW };
  if (verdict === "beyond-noise") return { beyond: true };
  const se = standardErrorsApart(a, b);
  return se >= WITHIN_NOISE_MAX_SE
    ? { notJudged: tooFewFor(`${Math.min(a.n, b.n)} one-second batches`, se) }
    : { beyond: false };
}

/**
 * The verdict of the analysis's rule (`repeats`: Welch's t-test over the repeats, which needs two a side;
 * `within-run`: `withinRunJudgement`) on the runs of a group against the baseline group's. A change the
 * repeats cannot show beyond noise is "within noise" only when it is under `WITHIN_NOISE_MAX_SE` standard
 * errors (two repeats a side let through a gap of 12: that is too few repeats, not noise).
 */
export function judgeNoise(
  rule: "repeats" | "within-run",
  runs: RunResult[],
  baseRuns: RunResult[],
  metric: NoiseMetric,
): NoiseJudgement {
  if (rule === "within-run") return withinRunJudgement(baseRuns, runs, metric);
  const scale = judgedScale(metric);
  const test = welchTest(
    baseRuns.map((r) => scale(runValue(r, metric))),
    runs.map((r) => scale(runValue(r, metric))),
  );
  if (test === null) return { notJudged: TOO_FEW };
  if (test.differs) return { beyond: true };
  return test.t >= WITHIN_NOISE_MAX_SE
    ? { notJudged: tooFewFor(`${Math.min(runs.length, baseRuns.length)} repeats a side`, test.t) }
    : { beyond: false };
}

/** A change as `judgeNoise` weighs it, in the metric's unit (success in percent, so changes in points). */
export interface JudgedChange {
  /** The baseline's level: the mean on the judged scale turned back (a geometric mean for latency). */
  base: number;
  /** The change from `base`, and its 95% interval [low, high]; null when noise was not measured. */
  diff: number;
  ci95: [number, number] | null;
}

/**
 * The numbers behind `judgeNoise`'s verdict on `runs` against `baseRuns`, so that what a reader is shown
 * never contradicts it: the difference of the two sides' means on the judged scale (`judgedScale`) with
 * the margin the rule compares it with (`repeats`: Welch's 95% interval; `within-run`: the two sides'
 * half-widths together, as their intervals overlap unless the means are further apart), both turned back
 * into the metric's unit. Beyond noise exactly when the interval excludes zero; for latency the interval
 * is a ratio's, so it is not symmetric around `diff`. Preconditions (`withinRunBlocker`) are not checked.
 */
export function judgedChange(
  rule: "repeats" | "within-run",
  runs: RunResult[],
  baseRuns: RunResult[],
  metric: NoiseMetric,
): JudgedChange {
  const scale = judgedScale(metric);
  const [a, b] = rule === "repeats"
    ? [baseRuns, runs].map((list) => meanCi(list.map((r) => scale(runValue(r, metric)))))
    : [judgedNoise(baseRuns, metric), judgedNoise(runs, metric)];
  const margin = rule === "repeats" ? welchDiff(a, b).ci95 : overlapMargin(a, b);
  const back = fromJudgedScale(metric), base = back(a.mean);
  const from = (x: number) => back(x) - base;
  return {
    base,
    diff: from(b.mean),
    ci95: margin === null ? null : [from(b.mean - margin), from(b.mean + margin)],
  };
}
