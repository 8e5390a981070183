/**
 * @module
 * `--output-bench FILE`: the runs as github-action-benchmark's custom JSON (smaller, bigger is better). Pure.
 */
import type { ResultsFile } from "../../results/mod.ts";
import { COMPARE_METRICS, higherIsBetter, runValue } from "../../results/conclude/noise_samples.ts";
import { meanCi, round4 } from "../../results/stats.ts";
import { pairKey } from "../../results/baseline_gate.ts";
import { runVerdict } from "../../results/conclude/run_verdict.ts";
import { latencySampled } from "../../results/conclude/responses.ts";
import { METRIC_UNITS } from "../terminal/baseline_gate.ts";

export interface BenchEntry {
  name: string;
  unit: string;
  value: number;
  range?: string;
  extra?: string;
}

/** `bench.json` -> `bench.bigger.json`: where the bigger-is-better half goes. */
export function biggerBenchPath(path: string): string {
  return /\.json$/i.test(path) ? path.replace(/\.json$/i, ".bigger.json") : `${path}.bigger.json`;
}

/** The entries of the metrics that are better `bigger` (req/s, success) or smaller (latency). */
function entries(results: ResultsFile, bigger: boolean): BenchEntry[] {
  const out: BenchEntry[] = [];
  for (const [key, runs] of Map.groupBy(results.runs.filter((r) => !r.probe), pairKey)) {
    const flagged = runs.map((r) => runVerdict(r)).filter((v) => !v.ok).map((v) => v.label);
    const extra = [
      `${runs.length} run${runs.length === 1 ? "" : "s"}`,
      ...(flagged.length ? [`flagged: ${[...new Set(flagged)].join("; ")}`] : []),
    ].join("\n");
    for (const metric of COMPARE_METRICS.filter((m) => higherIsBetter(m) === bigger)) {
      const unit = METRIC_UNITS[metric];
      // A run without a response has no latency sample: left out, never charted as 0 ms.
      const m = meanCi(
        runs.map((r) => unit === "ms" && !latencySampled(r) ? Number.NaN : runValue(r, metric)),
      );
      if (!Number.isFinite(m.mean)) continue;
      out.push({
        name: `${key} ${metric}`,
        unit,
        value: round4(m.mean),
        ...(m.ci95 === null ? {} : { range: `± ${round4(m.ci95)}` }),
        extra,
      });
    }
  }
  return out;
}

/** The two files' contents: latency (smaller is better) and throughput and success (bigger is better). */
export function renderBenchJson(results: ResultsFile): { smaller: string; bigger: string } {
  return {
    smaller: JSON.stringify(entries(results, false), null, 2) + "\n",
    bigger: JSON.stringify(entries(results, true), null, 2) + "\n",
  };
}
