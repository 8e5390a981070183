/**
 * @module
 * The page's overview rows (means over repeats, CIs, changes against the baseline variant), their bar chart.
 */
import { protocolTag } from "../../../results/text_format.ts";
import { sumValues } from "../../../results/interval_counts.ts";
import type { ResultsFile, RunResult } from "../../../results/mod.ts";
import { changePct, type MeanCi, meanCi, round4 } from "../../../results/stats.ts";
import { groupSends, groupVerdict } from "./verdict.ts";
import { sampledLatency } from "../../../results/conclude/responses.ts";
import { busyMachineNote } from "../../../results/conclude/own_waits.ts";
import { storedComparison } from "./experiment.ts";
import { sweepPointText } from "../../../results/conclude/noise_samples.ts";

/** The overview's metrics with their column labels, each a mean over repeats with its CI; page-inlined. */
export function overviewMetrics() {
  return [
    ["rps", "achieved req/s"],
    ["mean", "mean ms"],
    ["p50", "p50 ms"],
    ["p90", "p90 ms"],
    ["p99", "p99 ms"],
    ["p999", "p99.9 ms"],
    ["max", "max ms"],
    ["success", "success"],
    ["errors", "errors"],
    ["lateSends", "late sends"],
  ] as const;
}

const OVERVIEW_METRICS = overviewMetrics().map(([m]) => m);
export type OverviewMetric = ReturnType<typeof overviewMetrics>[number][0];

export type OverviewRow = ReturnType<typeof overviewRow>;

function metricOf(run: RunResult, m: OverviewMetric): number {
  if (m === "rps") return run.rps;
  if (m === "success") return run.successRate * 100;
  if (m === "errors") return sumValues(run.errors);
  return m === "lateSends" ? run.lateSends : sampledLatency(run)[m];
}

/** Repeats share a group; a run without a repeat index is its own group. */
export function groupKey(run: RunResult): string {
  if (run.repeat === undefined) return `run:${run.name}`;
  const sweep = sweepPointText(run);
  if (run.variant !== undefined || run.load !== undefined || sweep) {
    return `g:${run.variant ?? ""}|${run.load ?? ""}|${sweep}`;
  }
  return `u:${run.model}|${run.url}`;
}

function groupLabel(run: RunResult): string {
  const parts = [run.variant, run.load, sweepPointText(run)].filter((p) => p);
  const label = run.repeat === undefined
    ? run.name
    : parts.length
    ? parts.join(" / ")
    : run.name.replace(/[#/ ._-]*r?\d+$/, "");
  const protocol = protocolTag(run);
  return protocol === "" ? label : `${label} [${protocol}]`;
}

function overviewRow(key: string, runs: RunResult[]) {
  const metrics = {} as Record<OverviewMetric, MeanCi>;
  for (const m of OVERVIEW_METRICS) metrics[m] = meanCi(runs.map((r) => metricOf(r, m)));
  return {
    key,
    // A number shown carries what qualifies it: the profiler's cost is in these runs' numbers.
    label: groupLabel(runs[0]) + (runs.some((r) => r.profiles?.length) ? " (profiled)" : ""),
    variant: runs[0].variant ?? null,
    load: runs[0].load ?? null,
    model: runs[0].model as string,
    runs: runs.map((r) => r.name),
    metrics,
    /** Change in % against the baseline variant's row with the same load and sweep point. */
    changePct: null as Partial<Record<OverviewMetric, number>> | null,
    /** The stored analysis' verdict per compared metric (rps, p50, p99, success); null without one. */
    beyondNoise: null as Partial<Record<OverviewMetric, boolean>> | null,
    /** The run verdict: "ok", or each flagged run's label. */
    verdict: groupVerdict(runs),
    /** Open and throughput models: requested rate, sends made, dropped (summed over repeats); else null. */
    sends: groupSends(runs),
    /** Requests the run's own stop cut (`unfinished`, summed over repeats): shown, never failures. */
    unfinished: runs.reduce((a, r) => a + (r.unfinished ?? 0), 0),
    ...busiestNote(runs),
  };
}

/** One overview row per run or group of repeats, with means, CIs and changes against the baseline. */
export function buildOverview(results: ResultsFile): OverviewRow[] {
  const byKey = Map.groupBy(results.runs.filter((r) => !r.probe), groupKey);
  const rows = [...byKey.entries()].map(([key, runs]) => overviewRow(key, runs));
  const baseline = results.experiment.baseline;
  if (results.analysis) return withStoredComparisons(rows, results);
  if (baseline === undefined) return rows;
  const sweepOf = (row: OverviewRow) => sweepPointText(results.runs.find((r) => r.name === row.runs[0])!);
  for (const row of rows) {
    if (row.variant === null || row.variant === baseline) continue;
    const base = rows.find((b) =>
      b.variant === baseline && b.load === row.load && sweepOf(b) === sweepOf(row)
    );
    if (!base) continue;
    row.changePct = {};
    for (const m of OVERVIEW_METRICS) {
      row.changePct[m] = round4(changePct(base.metrics[m].mean, row.metrics[m].mean));
    }
  }
  return rows;
}

function withStoredComparisons(rows: OverviewRow[], results: ResultsFile): OverviewRow[] {
  for (const row of rows) {
    const stored = storedComparison(results.analysis, row.runs[0]);
    if (!stored) continue;
    row.changePct = stored.changePct;
    row.beyondNoise = stored.beyondNoise;
  }
  return rows;
}

/** A grouped bar chart: variants (series) against load × sweep points (labels), or a plain list of runs. */
export function buildComparison(rows: OverviewRow[], runs: RunResult[]) {
  const byName = new Map(runs.map((r) => [r.name, r]));
  const loads = [...new Set(rows.map((r) => r.load))];
  const words = [...new Set(runs.flatMap((r) => [r.sweep?.value, r.sweep2?.value]))]
    .filter((v) => typeof v === "string");
  const rank = (v: number | string | undefined, none: number) =>
    v === undefined ? none : typeof v === "number" ? v : 2 ** 52 + words.indexOf(v);
  const placed = rows.map((row) => {
    const run = byName.get(row.runs[0]);
    const label = [row.load, run && sweepPointText(run)].filter((p) => p).join(" · ");
    const sweep = [rank(run?.sweep?.value, Infinity), rank(run?.sweep2?.value, 0)];
    return { row, label, order: [loads.indexOf(row.load), ...sweep] };
  });
  const hasMatrix = rows.some((r) => r.variant !== null) && placed.some((p) => p.label !== "");
  if (!hasMatrix) {
    return { labels: rows.map((r) => r.label), series: [{ name: "runs", rows: rows.map((r) => r.key) }] };
  }
  placed.sort((a, b) => a.order[0] - b.order[0] || a.order[1] - b.order[1] || a.order[2] - b.order[2]);
  const labels = [...new Set(placed.map((p) => p.label || "(none)"))];
  const variants = [...new Set(rows.map((r) => r.variant ?? "(none)"))];
  return {
    labels,
    series: variants.map((v) => ({
      name: v,
      rows: labels.map((l) =>
        placed.find((p) => (p.row.variant ?? "(none)") === v && (p.label || "(none)") === l)?.row.key ?? null
      ),
    })),
  };
}

/** The busiest run's "other processes took 1.1 of the 2 cores", beside the rate; absent when quiet. */
function busiestNote(runs: RunResult[]): { busyMachine?: string } {
  const busiest = runs.reduce((a, r) => (r.hostCpu?.otherCores ?? 0) > (a.hostCpu?.otherCores ?? 0) ? r : a);
  const note = busyMachineNote(busiest);
  return note ? { busyMachine: note } : {};
}
