/**
 * @module
 * autocannon's tables of a run (latency percentiles, requests and bytes a second) as rows to print. Pure.
 */

import type { IntervalResult, LatencySummaryMs, RunResult } from "../../results/mod.ts";
import { formatBytes, formatDurationMs, formatNumber } from "../../results/text_format.ts";
import { sampledLatency } from "../../results/conclude/responses.ts";
import { meanOf, nearestRank, stdev } from "../../results/stats.ts";

/** Draws rows (the first one is the header) in a Unicode box, columns sized to their widest cell. */
export function boxTable(rows: string[][]): string {
  const columns = Math.max(0, ...rows.map((row) => row.length));
  const widths = Array.from(
    { length: columns },
    (_, c) => Math.max(...rows.map((row) => (row[c] ?? "").length)),
  );
  const line = (left: string, mid: string, right: string) =>
    left + widths.map((w) => "─".repeat(w + 2)).join(mid) + right;
  const row = (cells: string[]) =>
    "│" + widths.map((w, c) => ` ${(cells[c] ?? "").padEnd(w)} `).join("│") + "│";
  const out = [line("┌", "┬", "┐"), row(rows[0] ?? [])];
  if (rows.length > 1) out.push(line("├", "┼", "┤"), ...rows.slice(1).map(row));
  out.push(line("└", "┴", "┘"));
  return out.join("\n");
}

/** Nearest-rank percentiles, mean, population stdev, min and max; all zeros for no values. */
export function seriesStats(values: number[]) {
  if (values.length === 0) return { p1: 0, p2_5: 0, p50: 0, p97_5: 0, mean: 0, stdev: 0, min: 0, max: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const [p1, p2_5, p50, p97_5] = [1, 2.5, 50, 97.5].map((p) => nearestRank(sorted, p));
  const [mean, min, max] = [meanOf(sorted)!, sorted[0], sorted[sorted.length - 1]];
  return { p1, p2_5, p50, p97_5, mean, stdev: stdev(sorted, "population"), min, max };
}

/** Per-second rates of `pick`; a trailing partial second is left out (it would read as a dip). */
export function perSecond(intervals: IntervalResult[], pick: (i: IntervalResult) => number): number[] {
  const buckets = new Map<number, { total: number; coveredMs: number }>();
  for (const interval of intervals) {
    const second = Math.floor(interval.startMs / 1000);
    const bucket = buckets.get(second) ?? { total: 0, coveredMs: 0 };
    bucket.total += pick(interval);
    bucket.coveredMs += interval.durationMs;
    buckets.set(second, bucket);
  }
  const all = [...buckets.values()].filter((b) => b.coveredMs > 0);
  const full = all.filter((b) => b.coveredMs >= 999);
  return (full.length > 0 ? full : all).map((b) => b.total / (b.coveredMs / 1000));
}

function latencyRow(label: string, s: LatencySummaryMs): string[] {
  return [label, ...[s.p2_5, s.p50, s.p97_5, s.p99, s.mean, s.stdev, s.max].map(formatDurationMs)];
}

/** autocannon's tables as rows of text: latency (uncorrected as a second row), Req/Sec and Bytes/Sec. */
export function autocannonRows(run: RunResult) {
  const latency = [["Stat", "2.5%", "50%", "97.5%", "99%", "Avg", "Stdev", "Max"]];
  if (run.uncorrectedLatencyMs === null) {
    latency.push(latencyRow("Latency", sampledLatency(run)));
  } else {
    latency.push(latencyRow("Latency (corrected)", sampledLatency(run)));
    latency.push(latencyRow("Latency (uncorrected)", sampledLatency(run, run.uncorrectedLatencyMs)));
  }
  const perSecondRequests = perSecond(run.intervals, (i) => i.requests - (i.drained ?? 0));
  const requests = seriesStats(perSecondRequests);
  const bytes = seriesStats(perSecond(run.intervals, (i) => i.bytesRead));
  const pickAll = (
    s: ReturnType<typeof seriesStats>,
  ) => [s.p1, s.p2_5, s.p50, s.p97_5, s.mean, s.stdev, s.min];
  const throughput = [
    ["Stat", "1%", "2.5%", "50%", "97.5%", "Avg", "Stdev", "Min"],
    ["Req/Sec", ...pickAll(requests).map((v) => formatNumber(v, 2))],
    ["Bytes/Sec", ...pickAll(bytes).map(formatBytes)],
  ];
  return { latency, throughput, samples: perSecondRequests.length };
}
