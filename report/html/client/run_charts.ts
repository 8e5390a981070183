/**
 * @module
 * The charts of one run: its timeline on one time axis, then its histogram and percentile plot.
 */
import type { PageRun, PageTelemetry, TelemetryColumn } from "../page/run.ts";
import { fmtMs, fmtNum, h } from "./dom.ts";
import {
  addChart,
  addScaleToggle,
  color,
  colored,
  isolatedPointRadii,
  type Marks,
  percentileChart,
  rightAxisScale,
  timeChart,
  timeLineOptions,
  times,
  xy,
} from "./charts.ts";

/** Latency, throughput, errors and telemetry per interval on one time axis. */
export function timelineCharts(run: PageRun, grid: HTMLElement): void {
  const iv = run.iv, maxSec = run.durationSec;
  const stable = run.stabilizedAtMs === null ? [] : [{ x: run.stabilizedAtMs / 1000, label: "stable" }];
  // The connect phase of a crowd (results/conclude/planned_connections.ts): the intervals before ran fewer.
  const open = run.crowdOpenAtMs === null ? [] : [{ x: run.crowdOpenAtMs / 1000, label: "crowd open" }];
  const marks = [...open, ...stable, ...steeringMarks(run.steering ?? [])];
  const series = (["p50", "p75", "p90", "p99"] as const).map((k, i) => {
    const data = xy(iv.t, iv[k]);
    return colored(i, k, data, { pointRadius: isolatedPointRadii(data) });
  });
  // Concurrency on its own axis beside latency, so where latency bends is read against the users.
  const users = concurrency(run);
  const latencyOpts = withRightAxis(timeLineOptions("ms", "logarithmic", maxSec));
  const latency = [...series, { ...users, yAxisID: "y2" }];
  addScaleToggle(timeChart(grid, "latency per interval (ms)", latency, latencyOpts, marks));
  runtimeChart(run, grid, maxSec, marks); // beside latency: a blocked loop lines up with its spike
  const area = { backgroundColor: color(0, 0.15), fill: true };
  const tput = [colored(0, "achieved req/s", xy(iv.t, iv.rps), area)];
  if (run.targetRps) {
    // A steered run asked for its steered schedule: its average is drawn, the changes marked.
    const label = run.steering?.length ? "requested req/s (steered schedule's average)" : "requested req/s";
    tput.push(colored(2, label, times(iv.t).map((x) => ({ x, y: run.targetRps })), { borderDash: [4, 4] }));
  }
  tput.push({ ...users, yAxisID: "y2" });
  const tOpts = withRightAxis(timeLineOptions("req/s", "linear", maxSec));
  timeChart(grid, "throughput per interval", tput, tOpts, marks);
  errorCharts(run, grid, maxSec, marks);
  telemetryCharts(run, grid, maxSec, marks);
}

/** A change to a running load in words, as its mark and the live controls say it: "rate 1,500/s", "pause". */
export function steerChangeText(c: { action: string; ratePerSec?: number; connections?: number }): string {
  if (c.action === "rate") return `rate ${fmtNum(c.ratePerSec)}/s`;
  return c.action === "connections" ? `connections ${fmtNum(c.connections, 0)}` : c.action;
}

/** A marker per change made to a running load at its instant, `offsetSec` on (live: past the warm-up). */
export function steeringMarks(changes: Array<{ atSec: number; action: string }>, offsetSec = 0): Marks {
  return changes.map((c) => ({ x: c.atSec + offsetSec, label: steerChangeText(c) }));
}

/** The run's concurrency per interval: open connections (closed model) or requests in flight (open). */
export function concurrency(run: PageRun) {
  const closed = !run.targetRps;
  const ys = closed ? run.iv.connections : run.iv.inFlight;
  return colored(4, closed ? "connections" : "in flight", xy(run.iv.t, ys), {
    borderDash: [2, 2],
    pointRadius: 0,
  });
}

/** Options with a second y axis on the right (concurrency), from 0, without its own grid. */
export function withRightAxis(opts: any): any {
  opts.scales.y2 = { ...rightAxisScale(), display: "auto" };
  return opts;
}

/** Errors per interval stacked by kind with 4xx/5xx; late and server-bound sends on their own axis. */
export function errorCharts(run: PageRun, grid: HTMLElement, maxSec: number, marks: Marks): void {
  const iv = run.iv;
  const kinds = Object.entries(iv.errorKinds ?? {});
  const errors: Array<[string, number[]]> = kinds.length
    ? kinds.map(([kind, ys]) => [`${kind} errors`, ys])
    : [["errors", iv.errors]];
  const bars = [...errors, ["4xx/5xx", iv.failedStatus] as [string, number[]]].map(([label, ys], i) => ({
    label,
    data: xy(iv.t, ys),
    backgroundColor: color(i + 1, 0.8),
    barPercentage: 1,
    categoryPercentage: 1,
  }));
  const sends = ([["late sends", iv.lateSends], ["server-bound sends", iv.serverBoundSends ?? []]] as const)
    .filter(([, ys]) => ys.length > 0)
    .map(([label, ys], i) =>
      colored(bars.length + i + 1, label, xy(iv.t, ys), { type: "line", yAxisID: "y2", stack: "sends" })
    );
  const opts = timeLineOptions("count", "linear", maxSec);
  opts.scales.x.stacked = opts.scales.y.stacked = true;
  opts.scales.x.offset = false;
  opts.scales.y2 = { ...rightAxisScale("sends"), display: "auto" };
  const title = kinds.length ? "errors per interval by kind" : "errors per interval";
  timeChart(grid, title, [...bars, ...sends], opts, marks, "bar");
}

/** Histogram bars and the HDR percentile curve, uncorrected beside corrected when measured. */
export function distributionCharts(run: PageRun, grid: HTMLElement): void {
  const range = (i: number) => `${fmtMs(run.chartHistogram[i][0])} – ${fmtMs(run.chartHistogram[i][1])}`;
  const bars = { barPercentage: 1, categoryPercentage: 1 };
  addChart(grid, "latency histogram (log-spaced buckets)", {
    type: "bar",
    data: {
      labels: run.chartHistogram.map(([from]) => fmtMs(from)),
      datasets: [
        colored(0, "requests", run.chartHistogram.map(([, , n]) => n), {
          ...bars,
          backgroundColor: color(0, 0.7),
        }),
      ],
    },
    options: {
      plugins: {
        legend: { display: false },
        tooltip: { callbacks: { title: (items: any[]) => items.map((it) => range(it.dataIndex)) } },
      },
      scales: { y: { beginAtZero: true, title: { display: true, text: "requests" } } },
    },
  });
  percentileChart(grid, "latency by percentile (ms)", [
    {
      label: run.uncorrectedPercentiles ? "corrected (from intended send)" : "latency",
      points: run.percentiles,
    },
    ...(run.uncorrectedPercentiles
      ? [{ label: "uncorrected (from actual send)", points: run.uncorrectedPercentiles }]
      : []),
  ]);
}

/** A telemetry column's line: label, column, colour offset in the series' stride, options (axis, dashes). */
type TelemetryLine = [string, TelemetryColumn, number, Record<string, unknown>?];

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
