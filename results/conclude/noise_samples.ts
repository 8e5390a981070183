/**
 * @module
 * What the noise rules and the findings weigh: the compared metrics, a run's values and batch means over its
 * judged part (from its stabilization point, else its final half), and each metric's judged scale. Pure.
 */
import type { IntervalResult, RunResult } from "../schema/results.ts";
import { servedRps } from "./served_rate.ts";
import { latencySampled } from "./responses.ts";
import { sumValues } from "../interval_counts.ts";
import { batchMeans, type IntervalSample, type MeanCi, meanCi } from "../stats.ts";
import { decodeHistogram, usToMs } from "../histogram.ts";
import { targetCpuUsPerRequest } from "./telemetry_digest.ts";

/** The metrics compared between runs and groups; `success` is in percent. */
export const COMPARE_METRICS = ["rps", "p50", "p99", "success"] as const;
export type CompareMetric = typeof COMPARE_METRICS[number];
/** What noise rules judge: the compared metrics, an expectation's mean and cpu, baseline_gate.ts's p10. */
export type NoiseMetric = CompareMetric | "mean" | "p10" | "cpu";

/** Whether a higher value of `metric` is better: req/s and success; latency, cpu, drops better lower. */
export function higherIsBetter(metric: NoiseMetric | "dropped"): boolean {
  return metric === "rps" || metric === "success";
}

/** Length of one batch in the batch-means noise estimate, when the part judged holds `MIN_LONG_BATCHES`. */
const BATCH_MS = 1000;
const MIN_LONG_BATCHES = 4;

/** One interval's value of a metric (NaN when the interval says nothing about it). */
function intervalValue(iv: IntervalResult, metric: NoiseMetric): number {
  switch (metric) {
    case "mean":
    case "p50":
    case "p99":
      return latencySampled(iv) ? iv[metric] : Number.NaN;
    case "rps": // served within the window, as the achieved rate: the drain left out
      return servedRps(iv.requests, iv.drained ?? 0, iv.durationMs / 1000);
    case "p10": // from the interval's histogram, NaN where the run kept none (--interval-histograms none)
      return latencySampled(iv) && iv.histogramEncoded
        ? usToMs(decodeHistogram(iv.histogramEncoded).getValueAtPercentile(10))
        : Number.NaN;
    case "success": {
      const judged = iv.requests - (iv.unjudged ?? 0), sent = judged + iv.errors;
      return sent > 0 ? ((judged - iv.failedStatus) / sent) * 100 : Number.NaN;
    }
    case "cpu": // telemetry ticks are not the intervals: judged over repeats only
      return Number.NaN;
  }
}

/** A whole run's value of a metric (success in percent). */
export function runValue(run: RunResult, metric: NoiseMetric): number {
  if (metric === "rps") return run.rps;
  if (metric === "success") return run.successRate * 100;
  if (metric === "cpu") return targetCpuUsPerRequest(run);
  return run.latencyMs[metric];
}

/** "parameter=value, parameter2=value": a run's sweep point; "" outside a sweep. */
export function sweepPointText(run: { [K in "sweep" | "sweep2"]?: RunResult[K] | null }): string {
  return [run.sweep, run.sweep2].flatMap((p) => p ? [`${p.parameter}=${p.value}`] : []).join(", ");
}

/** "load at parameter=value, parameter2=value", the load alone, or "runs" when neither is set. */
export function pointKey(run: RunResult): string {
  return [run.load ?? "", sweepPointText(run)].filter(Boolean).join(" at ") || "runs";
}

/** A run's value of `metric`; NaN where a run with no response or no send has none. */
export function metricValue(run: RunResult, metric: NoiseMetric): number {
  if (metric === "rps") return run.rps;
  if (metric === "success") {
    return sumValues(run.errors) + run.requests > (run.unjudged ?? 0) ? run.successRate * 100 : Number.NaN;
  }
  if (metric === "cpu") return targetCpuUsPerRequest(run);
  if (!latencySampled(run)) return Number.NaN;
  return run.latencyMs[metric];
}

/** Batch means of a metric over a run's judged part: from where it settled in its first half, else half. */
function batchesOf(run: RunResult, metric: NoiseMetric) {
  const samples: IntervalSample[] = run.intervals.map((iv) => ({
    startMs: iv.startMs,
    durationMs: iv.durationMs,
    value: intervalValue(iv, metric),
    weight: metric === "rps" ? 1 : iv.requests + (metric === "success" ? iv.errors : 0),
  }));
  // A final half of fewer than three intervals (a 1 s run's) has no spread of its own: the whole run.
  const half = run.intervals.length - Math.floor(run.intervals.length / 2) >= 3
    ? Math.floor(run.intervals.length / 2)
    : 0;
  const halfMs = run.intervals[half]?.startMs ?? 0;
  const settled = run.stabilizedAtMs !== null && run.stabilizedAtMs <= halfMs;
  const fromMs = settled ? run.stabilizedAtMs! : halfMs;
  const part = batchesFrom(samples, fromMs, run);
  // Under three batches answered (a queue past the timeout answers nothing late) is no spread either.
  const [kept, whole] = part.values.length >= 3 || fromMs === 0
    ? [part, settled]
    : [batchesFrom(samples, 0, run), false];
  return { ...kept, ...withoutLoneStall(kept.values, metric), settled: whole };
}

/**
 * Batch means without a run's one stall (over 10x the median of 5+ for latency, under a tenth for req/s):
 * runner or target may have frozen, so it is noise until repeats show it; two or more stay, the target's.
 */
function withoutLoneStall(values: number[], metric: NoiseMetric) {
  const median = values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)];
  const stalled = values.map((v) => (higherIsBetter(metric) ? v * 10 < median : v > median * 10));
  const lone = values.length >= 5 && metric !== "success" && stalled.filter(Boolean).length === 1;
  return lone ? { values: values.filter((_, i) => !stalled[i]), stalls: 1 } : { values, stalls: 0 };
}

/** Batch means from `fromMs` on: one-second batches when there are `MIN_LONG_BATCHES`, else per interval. */
function batchesFrom(samples: IntervalSample[], fromMs: number, run: RunResult) {
  const long = batchMeans(samples, fromMs, BATCH_MS);
  if (long.length >= MIN_LONG_BATCHES) return { values: long, lengthsMs: [BATCH_MS] };
  const intervalMs = run.intervals[0]?.durationMs ?? BATCH_MS;
  return { values: batchMeans(samples, fromMs, intervalMs), lengthsMs: [intervalMs] };
}

/** The batches of one side: their means, their lengths (ms), and whether every run had settled. */
type Batches = ReturnType<typeof sideBatches>;

/** The batches of the runs of one side together (one run, or a group whose repeats are too few). */
export function sideBatches(runs: RunResult[], metric: NoiseMetric) {
  const each = runs.map((run) => batchesOf(run, metric));
  return {
    values: each.flatMap((b) => b.values),
    lengthsMs: [...new Set(each.flatMap((b) => b.lengthsMs))],
    settled: each.every((b) => b.settled),
    stalls: each.reduce((n, b) => n + b.stalls, 0),
  };
}

/** Batch means of one metric (see `batchesOf`), pooled over the runs given, with their 95% CI. */
export function runNoise(runs: RunResult | RunResult[], metric: NoiseMetric): MeanCi {
  return meanCi(sideBatches(Array.isArray(runs) ? runs : [runs], metric).values);
}

/** Noise's judged scale: log for latency and req/s, whose noise multiplies; req/s + 1, so a stall counts. */
export function judgedScale(metric: NoiseMetric): (x: number) => number {
  if (metric === "success") return (x) => x;
  if (metric === "rps") return (x) => (x >= 0 ? Math.log1p(x) : Number.NaN);
  return (x) => (x > 0 ? Math.log(x) : Number.NaN);
}

/** A judged-scale value back in the metric's unit: the inverse of `judgedScale`. */
export function fromJudgedScale(metric: NoiseMetric): (x: number) => number {
  if (metric === "success") return (x) => x;
  return metric === "rps" ? Math.expm1 : Math.exp;
}

/** A side's batch means on the judged scale, with their 95% CI. */
export function judgedNoise(batches: Batches, metric: NoiseMetric): MeanCi {
  return meanCi(batches.values.map(judgedScale(metric)));
}

function steadyLoad(run: RunResult): boolean {
  const phases = run.config.phases;
  if (!Array.isArray(phases) || phases.length === 0) return true;
  type Phase = { ratePerSec?: number; rampToPerSec?: number };
  const rates = phases.flatMap((p: Phase) => [p.ratePerSec, p.rampToPerSec ?? p.ratePerSec]);
  return new Set(rates).size === 1;
}

/** Why these runs' intervals cannot tell their noise (the first whose load changes rate), or null. */
export function withinRunBlocker(runs: RunResult[]): string | null {
  const run = runs.find((r) => !steadyLoad(r));
  if (run === undefined) return null;
  const load = run.load ? `load ${run.load}` : `${run.name}'s load`;
  return `the ${load} changes its rate within the run, so its intervals differ by the load, not by noise`;
}

/** "6 and 8 batches of 250 ms of the settled part", "4 batches of one second each of the final half, ...". */
export function batchesText(a: Batches, b: Batches): string {
  const lengths = [...new Set([...a.lengthsMs, ...b.lengthsMs])];
  const of = `batches of ${lengths.map((ms) => ms === BATCH_MS ? "one second" : `${ms} ms`).join(" or ")}`;
  const count = a.values.length === b.values.length
    ? `${a.values.length} ${of} each`
    : `${a.values.length} and ${b.values.length} ${of}`;
  const part = a.settled && b.settled
    ? "of the settled part"
    : "of the final half where a run had not settled by then, its drift counted as spread";
  const stalls = a.stalls + b.stalls;
  const aside = stalls
    ? `, ${stalls} lone stall${stalls > 1 ? "s" : ""} set aside (repeats show a target's)`
    : "";
  return `${count} ${part}${aside}`;
}
