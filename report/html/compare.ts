/**
 * @module
 * The baseline-vs-candidate view of `loadlab report --compare`: runs are matched by name, and for
 * req/s, p50, p99 and success the change is reported together with whether it is beyond noise. Noise
 * comes from each run's own intervals: after the stabilization point, intervals are averaged into
 * one-second batches (batch means, because neighbouring 250 ms intervals are correlated), and a change
 * is beyond noise when the 95% confidence intervals of the two runs' batch means do not overlap.
 */
import type { IntervalResult, ResultsFile, RunResult } from "../../results/mod.ts";
import {
  batchMeans,
  changePct,
  type IntervalSample,
  type MeanCi,
  meanCi,
  type NoiseVerdict,
  noiseVerdict,
  round4,
} from "../../results/stats.ts";

/** The metrics compared between two runs. */
export const COMPARE_METRICS = ["rps", "p50", "p99", "success"] as const;
export type CompareMetric = typeof COMPARE_METRICS[number];

/** One metric of one matched run pair. */
export interface CompareCell {
  before: number;
  after: number;
  changePct: number;
  beforeCi: number | null;
  afterCi: number | null;
  verdict: NoiseVerdict;
}

/** One matched run: the name plus a cell per metric. */
export interface CompareRow {
  name: string;
  cells: Record<CompareMetric, CompareCell>;
}

/** Length of one batch in the batch-means noise estimate. */
export const BATCH_MS = 1000;

function intervalValue(iv: IntervalResult, metric: CompareMetric): number {
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

function wholeRunValue(run: RunResult, metric: CompareMetric): number {
  if (metric === "rps") return run.rps;
  if (metric === "success") return run.successRate * 100;
  return run.latencyMs[metric];
}

/** Batch means of one metric after the run's stabilization point (the whole run if it never settled). */
export function runNoise(run: RunResult, metric: CompareMetric): MeanCi {
  const samples: IntervalSample[] = run.intervals.map((iv) => ({
    startMs: iv.startMs,
    durationMs: iv.durationMs,
    value: intervalValue(iv, metric),
    // Throughput batches weigh every interval alike; latency batches weigh by requests.
    weight: metric === "rps" ? 1 : iv.requests + (metric === "success" ? iv.errors : 0),
  }));
  return meanCi(batchMeans(samples, run.stabilizedAtMs ?? 0, BATCH_MS));
}

function compareCell(before: RunResult, after: RunResult, metric: CompareMetric): CompareCell {
  const a = runNoise(before, metric), b = runNoise(after, metric);
  const [x, y] = [wholeRunValue(before, metric), wholeRunValue(after, metric)];
  return {
    before: round4(x),
    after: round4(y),
    changePct: round4(changePct(x, y)),
    beforeCi: a.ci95 === null ? null : round4(a.ci95),
    afterCi: b.ci95 === null ? null : round4(b.ci95),
    verdict: noiseVerdict(a, b),
  };
}

/** Matches runs by name, in the candidate's order; unmatched runs are left out. */
export function buildCompare(baseline: ResultsFile, candidate: ResultsFile): CompareRow[] {
  const byName = new Map(baseline.runs.map((r) => [r.name, r]));
  const rows: CompareRow[] = [];
  for (const run of candidate.runs) {
    const before = byName.get(run.name);
    if (!before) continue;
    const cells = {} as Record<CompareMetric, CompareCell>;
    for (const m of COMPARE_METRICS) cells[m] = compareCell(before, run, m);
    rows.push({ name: run.name, cells });
  }
  return rows;
}
