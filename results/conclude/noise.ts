/**
 * @module
 * The within-run noise rule shared by `loadlab report --compare` and the stored analysis when an
 * experiment has one repeat: after a run's stabilization point its intervals are averaged into
 * one-second batches (batch means, because neighbouring 250 ms intervals are correlated), and a change
 * is beyond noise when the 95% confidence intervals of the two sides' batch means do not overlap
 * (`noiseVerdict`). Pure; the metrics are the four the analysis compares.
 */
import type { IntervalResult, RunResult } from "../schema.ts";
import { batchMeans, type IntervalSample, type MeanCi, meanCi } from "../stats.ts";

/** The metrics compared between runs and groups; `success` is in percent. */
export const COMPARE_METRICS = ["rps", "p50", "p99", "success"] as const;
export type CompareMetric = typeof COMPARE_METRICS[number];

/** Length of one batch in the batch-means noise estimate. */
export const BATCH_MS = 1000;

/** One interval's value of a metric (NaN when the interval says nothing about it). */
export function intervalValue(iv: IntervalResult, metric: CompareMetric): number {
  switch (metric) {
    case "rps":
      return iv.requests / (iv.durationMs / 1000);
    case "p50":
      return iv.p50;
    case "p99":
      return iv.p99;
    case "success": {
      const sent = iv.requests + iv.errors;
      return sent > 0 ? ((iv.requests - iv.non2xx) / sent) * 100 : Number.NaN;
    }
  }
}

/** A whole run's value of a metric (success in percent). */
export function runValue(run: RunResult, metric: CompareMetric): number {
  if (metric === "rps") return run.rps;
  if (metric === "success") return run.successRate * 100;
  return run.latencyMs[metric];
}

function batchesOf(run: RunResult, metric: CompareMetric): number[] {
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
export function runNoise(runs: RunResult | RunResult[], metric: CompareMetric): MeanCi {
  const list = Array.isArray(runs) ? runs : [runs];
  return meanCi(list.flatMap((run) => batchesOf(run, metric)));
}
