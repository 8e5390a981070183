/// <reference lib="dom" />
/**
 * @module
 * What happened inside the target during a run: its event loop and GC, and the Redis server's view.
 * Inlined by source text (see dom.ts).
 */
import type { PageRun, PageTelemetry } from "../page/run.ts";
import { h } from "./dom.ts";
import { colored, type Marks, rightAxisScale, timeChart, timeLineOptions, xy } from "./charts.ts";

/** One line of a telemetry column, or nothing when the column is absent. */
export function telemetryLine(
  t: PageTelemetry,
  label: string,
  ys: Array<number | null> | undefined,
  i: number,
  extra: Record<string, unknown> = {},
): any[] {
  if (!ys) return [];
  return [colored(i, label, xy(t.t, ys), extra)];
}

/** Event-loop delay and GC of each sampled process; nothing when the run has no runtime series. */
export function runtimeChart(run: PageRun, grid: HTMLElement, maxSec: number, marks: Marks): void {
  const series = run.telemetry.filter((t) => t.kind === "runtime");
  if (!series.length) return;
  const several = series.length > 1;
  const datasets = series.flatMap((t, s) => {
    const name = several ? `${t.name} ` : "";
    const base = s * 6;
    return [
      ...telemetryLine(t, `${name}loop delay p50`, t.loopP50Ms, base),
      ...telemetryLine(t, `${name}loop delay p99`, t.loopP99Ms, base + 1),
      ...telemetryLine(t, `${name}loop delay max`, t.loopMaxMs, base + 2, { borderDash: [2, 2] }),
      ...telemetryLine(t, `${name}GC pauses ms/s`, t.gcMsPerSec, base + 3, {
        yAxisID: "y2",
        borderDash: [6, 3],
      }),
      ...telemetryLine(t, `${name}heap MiB`, t.heapMiB, base + 5, { yAxisID: "y3", hidden: true }),
    ];
  });
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

/** The Redis server's own counters (INFO, SLOWLOG); nothing when the run sampled no Redis. */
export function redisServerChart(run: PageRun, grid: HTMLElement, maxSec: number, marks: Marks): void {
  const redis = run.telemetry.filter((t) => t.kind === "redis" && (t.usedMemoryMiB || t.hitRatioPct));
  if (!redis.length) return;
  const datasets = redis.flatMap((t) => [
    ...telemetryLine(t, "hit ratio % (server)", t.hitRatioPct, 0),
    ...telemetryLine(t, "used memory MiB", t.usedMemoryMiB, 1, { yAxisID: "y2" }),
    ...telemetryLine(t, "connected clients", t.connectedClients, 2, { yAxisID: "y2", hidden: true }),
    ...telemetryLine(t, "evicted keys/s", t.evictedPerSec, 3, { yAxisID: "y2" }),
    ...telemetryLine(t, "slow log entries", t.slowlogAdded, 4, { yAxisID: "y2" }),
  ]);
  const opts = timeLineOptions("hit ratio %", "linear", maxSec);
  opts.scales.y.max = 100;
  opts.scales.y2 = rightAxisScale("MiB, clients, keys/s, entries");
  timeChart(grid, "redis server (INFO, SLOWLOG)", datasets, opts, marks);
}
