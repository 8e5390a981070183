/// <reference lib="dom" />
/**
 * @module
 * What happened inside the target during a run: its event loop and GC, and the Redis server's view.
 */
import type { PageRun, PageTelemetry, TelemetryColumn } from "../page/run.ts";
import { h } from "./dom.ts";
import { colored, type Marks, rightAxisScale, timeChart, timeLineOptions, xy } from "./charts.ts";

/** A telemetry column's line: label, column, colour offset in the series' stride, options (axis, dashes). */
export type TelemetryLine = [string, TelemetryColumn, number, Record<string, unknown>?];

/** `lines` of each series, the series' name before each label when `named`; absent columns draw nothing. */
export function telemetryLines(
  series: PageTelemetry[],
  named: boolean,
  stride: number,
  lines: TelemetryLine[],
) {
  return series.flatMap((t, s) =>
    lines.flatMap(([label, column, i, extra]) => {
      const ys = t[column];
      return ys ? [colored(s * stride + i, named ? `${t.name} ${label}` : label, xy(t.t, ys), extra)] : [];
    })
  );
}

/** Event-loop delay and GC of each sampled process; nothing when the run has no runtime series. */
export function runtimeChart(run: PageRun, grid: HTMLElement, maxSec: number, marks: Marks): void {
  const series = run.telemetry.filter((t) => t.kind === "runtime");
  if (!series.length) return;
  const datasets = telemetryLines(series, series.length > 1, 6, [
    ["loop delay p50", "loopP50Ms", 0],
    ["loop delay p99", "loopP99Ms", 1],
    ["loop delay max", "loopMaxMs", 2, { borderDash: [2, 2] }],
    ["GC pauses ms/s", "gcMsPerSec", 3, { yAxisID: "y2", borderDash: [6, 3] }],
    ["heap MiB", "heapMiB", 5, { yAxisID: "y3", hidden: true }],
  ]);
  const opts = timeLineOptions("loop delay ms", "linear", maxSec);
  opts.scales.y2 = { ...rightAxisScale("GC ms per s"), display: "auto" };
  opts.scales.y3 = { ...rightAxisScale("heap MiB"), display: "auto" };
  const runtimes = [...new Set(series.map((t) => t.runtime).filter(Boolean))].join(", ");
  timeChart(grid, `event loop and GC${runtimes ? ` (${runtimes})` : ""}`, datasets, opts, marks);
  const notes = series.filter((t) => t.error).map((t) => `${t.name}: the sampler stopped: ${t.error}`);
  if (series.some((t) => t.runtime === "deno")) {
    notes.push("Deno reports no GC events: no GC line for its processes.");
  }
  if (notes.length) grid.appendChild(h("p", { class: "note" }, notes.join(" ")));
}

/** Each target process (CPU, RSS, waiting for a core), Redis as loadlab saw it and as its server saw it. */
export function telemetryCharts(run: PageRun, grid: HTMLElement, maxSec: number, marks: Marks): void {
  const of = (kind: string) => run.telemetry.filter((t) => t.kind === kind);
  const server = of("redis").filter((t) => t.usedMemoryMiB || t.hitRatioPct);
  const right = (title: string) => ({ y2: rightAxisScale(title) });
  // Title, y axis, series, the series' name before each label, colours per series, lines, axes added.
  const charts: Array<
    [string, string, PageTelemetry[], boolean, number, TelemetryLine[], Record<string, object>]
  > = [
    ["target process", "CPU %", of("process"), true, 2, [
      ["CPU %", "cpuPercent", 0, { yAxisID: "y" }],
      ["RSS MiB", "rssMiB", 1, { yAxisID: "y2", borderDash: [4, 3] }],
      ["waiting for a core %", "runQueueWaitPct", 2, { yAxisID: "y", borderDash: [1, 2] }],
    ], right("RSS MiB")],
    ["redis", "per second", of("redis"), true, 3, [
      ["ops/s", "opsPerSec", 0, { yAxisID: "y" }],
      ["hits/s", "hitsPerSec", 2, { yAxisID: "y" }],
      ["misses/s", "missesPerSec", 1, { yAxisID: "y" }],
    ], {}],
    ["redis server (INFO, SLOWLOG)", "hit ratio %", server, false, 0, [
      ["hit ratio % (server)", "hitRatioPct", 0],
      ["used memory MiB", "usedMemoryMiB", 1, { yAxisID: "y2" }],
      ["connected clients", "connectedClients", 2, { yAxisID: "y2", hidden: true }],
      ["evicted keys/s", "evictedPerSec", 3, { yAxisID: "y2" }],
      ["slow log entries", "slowlogAdded", 4, { yAxisID: "y2" }],
    ], { ...right("MiB, clients, keys/s, entries"), y: { max: 100 } }],
  ];
  for (const [title, y, series, named, stride, lines, axes] of charts) {
    if (!series.length) continue;
    const opts = timeLineOptions(y, "linear", maxSec);
    for (const [id, axis] of Object.entries(axes)) opts.scales[id] = { ...opts.scales[id], ...axis };
    timeChart(grid, title, telemetryLines(series, named, stride, lines), opts, marks);
  }
}
