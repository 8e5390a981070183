/**
 * @module
 * Thresholds over windows (`p99<100ms over 10s`): the rule must hold in every window of the run,
 * latency exact from the intervals' HDR histograms.
 */
import type { IntervalResult, RunResult } from "../schema/results.ts";
import type { LatencyKey } from "../schema/values.ts";
import { mergeEncoded, summarizeMs } from "../histogram.ts";
import { successRateOf } from "../interval_counts.ts";
import { servedRps } from "../conclude/served_rate.ts";
import { maxOf } from "../../system/large_arrays.ts";

/** What a window's value of a threshold metric is measured from. */
export type WindowMetric = { kind: "latency"; key: LatencyKey } | { kind: "rps" } | {
  kind: "success";
  invert: boolean;
};

/** Consecutive groups of intervals, each `windowMs` long; a tail under half a window joins the last. */
export function windowsOf(intervals: IntervalResult[], windowMs: number): IntervalResult[][] {
  const windows: IntervalResult[][] = [];
  let current: IntervalResult[] = [], spanMs = 0;
  for (const iv of intervals) {
    current.push(iv);
    spanMs += iv.durationMs;
    if (spanMs >= windowMs) {
      windows.push(current);
      current = [];
      spanMs = 0;
    }
  }
  if (current.length) {
    if (spanMs >= windowMs / 2 || windows.length === 0) windows.push(current);
    else windows[windows.length - 1].push(...current);
  }
  return windows;
}

const INTERVAL_KEYS = new Set<LatencyKey>(["p50", "p75", "p90", "p99"]);

function latencyOf(window: IntervalResult[], key: LatencyKey): number {
  const withRequests = window.filter((iv) => iv.requests > 0);
  if (withRequests.length === 0) return Number.NaN;
  if (withRequests.every((iv) => iv.histogramEncoded)) {
    return summarizeMs(mergeEncoded(withRequests.map((iv) => iv.histogramEncoded!)))[key];
  }
  if (!INTERVAL_KEYS.has(key)) return Number.NaN;
  return maxOf(withRequests.map((iv) => iv[key as "p50" | "p75" | "p90" | "p99"]));
}

/** The value of `metric` in one window (NaN when the window says nothing about it). */
function windowValue(window: IntervalResult[], metric: WindowMetric): number {
  if (metric.kind === "latency") return latencyOf(window, metric.key);
  const requests = window.reduce((a, iv) => a + iv.requests, 0);
  if (metric.kind === "rps") {
    // Served within the window, as the achieved rate: the drain folded into the last interval left out.
    const drained = window.reduce((a, iv) => a + (iv.drained ?? 0), 0);
    return servedRps(requests, drained, window.reduce((a, iv) => a + iv.durationMs, 0) / 1000);
  }
  const errors = window.reduce((a, iv) => a + iv.errors, 0);
  const rate = successRateOf({
    requests,
    errors,
    failedStatus: window.reduce((a, iv) => a + iv.failedStatus, 0),
  }, NaN);
  return metric.invert ? 1 - rate : rate;
}

/** Every window's value of `metric` over the run's intervals. */
export function windowValues(run: RunResult, windowMs: number, metric: WindowMetric): number[] {
  return windowsOf(run.intervals, windowMs).map((w) => windowValue(w, metric));
}
