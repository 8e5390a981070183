/**
 * @module
 * The point a run belongs to ("sleepTime at query.ms=10") and a run's value of a metric, where a run
 * without a response has no latency or success. Pure.
 */
import type { RunResult } from "../mod.ts";
import type { NoiseMetric } from "./noise_samples.ts";
import { latencySampled } from "./responses.ts";
import { sumValues } from "../interval_counts.ts";

/** "load at parameter=value, parameter2=value", the load alone, or "runs" when neither is set. */
export function pointKey(run: RunResult): string {
  const sweep = [run.sweep, run.sweep2].filter((p) => p !== undefined)
    .map((p) => `${p!.parameter}=${p!.value}`).join(", ");
  return [run.load ?? "", sweep].filter(Boolean).join(" at ") || "runs";
}

/** A run's value of `metric`; NaN where a run with no response or no send has none. */
export function metricValue(run: RunResult, metric: NoiseMetric): number {
  if (metric === "rps") return run.rps;
  if (metric === "success") {
    return sumValues(run.errors) + run.requests > 0 ? run.successRate * 100 : Number.NaN;
  }
  if (!latencySampled(run)) return Number.NaN;
  return run.latencyMs[metric];
}

/** The mean of the finite values; NaN when there are none. */
export function finiteMean(values: number[]): number {
  const finite = values.filter(Number.isFinite);
  return finite.length ? finite.reduce((a, b) => a + b, 0) / finite.length : Number.NaN;
}
