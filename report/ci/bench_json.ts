/**
 * @module
 * `--output-bench FILE`: the runs as github-action-benchmark's custom JSON, latency to FILE
 * (`customSmallerIsBetter`) and throughput to a sibling file (`customBiggerIsBetter`). Pure.
 */
import type { ResultsFile, RunResult } from "../../results/mod.ts";
import { type CompareMetric, runValue } from "../../results/conclude/noise_samples.ts";
import { meanCi, round4 } from "../../results/stats.ts";
import { pairKey } from "../../results/baseline_gate.ts";
import { runVerdict } from "../../results/conclude/run_verdict.ts";
import { latencySampled } from "../../results/conclude/responses.ts";

/** One entry of github-action-benchmark's custom JSON. */
export interface BenchEntry {
  name: string;
  unit: string;
  value: number;
  range?: string;
  extra?: string;
}

const SMALLER: Array<[CompareMetric, string]> = [["p50", "ms"], ["p99", "ms"]];
const BIGGER: Array<[CompareMetric, string]> = [["rps", "req/s"], ["success", "%"]];

/** `bench.json` -> `bench.bigger.json`: where the bigger-is-better half goes. */
export function biggerBenchPath(path: string): string {
  return /\.json$/i.test(path) ? path.replace(/\.json$/i, ".bigger.json") : `${path}.bigger.json`;
}

function groups(results: ResultsFile): Map<string, RunResult[]> {
  return Map.groupBy(results.runs.filter((r) => !r.probe), pairKey);
}

function entries(results: ResultsFile, metrics: Array<[CompareMetric, string]>): BenchEntry[] {
  const out: BenchEntry[] = [];
  for (const [key, runs] of groups(results)) {
    const flagged = runs.map((r) => runVerdict(r)).filter((v) => !v.ok).map((v) => v.label);
    const extra = [
      `${runs.length} run${runs.length === 1 ? "" : "s"}`,
      ...(flagged.length ? [`flagged: ${[...new Set(flagged)].join("; ")}`] : []),
    ].join("\n");
    for (const [metric, unit] of metrics) {
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
    smaller: JSON.stringify(entries(results, SMALLER), null, 2) + "\n",
    bigger: JSON.stringify(entries(results, BIGGER), null, 2) + "\n",
  };
}
