/// <reference lib="dom" />
/**
 * @module
 * Browser-side per-run section of report.html: a run picker, then for the chosen run its facts, the
 * warm-up timeline (p50/p75/p90/p99 per interval, log or linear), throughput, errors and telemetry on
 * the same time axis with the stabilization point marked, the latency histogram and HDR percentile
 * plot (corrected and uncorrected), status and error tables, and oha- and autocannon-style summaries.
 * Only one run is drawn at a time so a 50-run report stays light. Inlined by source text (see dom.ts).
 */
import type { PageData, PageRun, PageTelemetry } from "../page_data.ts";
import { type Cell, facts, fmtBytes, fmtMs, fmtNum, fmtPct, h, section, sortableTable } from "./dom.ts";
import {
  addChart,
  addScaleToggle,
  color,
  destroyCharts,
  markerPlugin,
  ninesAxis,
  percentileData,
  timeLineOptions,
  times,
  xy,
} from "./charts.ts";
import { autocannonTables, ohaText } from "./tool_tables.ts";
import { experimentTables } from "./experiment.ts";

/** The "Runs" section: a picker and the chosen run's details below it. */
export function renderRunSection(data: PageData): { el: HTMLElement; pick: (name: string) => void } {
  const sec = section("runs", "Run details");
  const select = h("select", { id: "run-picker", "aria-label": "run" }) as HTMLSelectElement;
  data.runs.forEach((r) => select.appendChild(h("option", { value: r.name }, r.name)));
  const body = h("div", { id: "run-body" });
  sec.appendChild(h("label", { class: "picker" }, "Run ", select));
  sec.appendChild(body);
  const pick = (name: string) => {
    select.value = name;
    const run = data.runs.find((r) => r.name === name);
    destroyCharts(body);
    body.replaceChildren();
    if (run) showRun(run, body);
  };
  select.addEventListener("change", () => pick(select.value));
  if (data.runs.length) pick(data.runs[0].name);
  return { el: sec, pick };
}

/** Builds everything about one run into `body`. */
export function showRun(run: PageRun, body: HTMLElement): void {
  body.appendChild(h("h3", { class: "run-name" }, run.name));
  const errorsTotal = Object.values(run.errors).reduce((a: number, b) => a + (b ?? 0), 0);
  body.appendChild(facts([
    ["URL", run.url],
    ["model", run.model + (run.targetRps ? ` at ${fmtNum(run.targetRps)} req/s requested` : "")],
    [
      "measured",
      `${fmtNum(run.durationSec, 2)} s after ${fmtNum(run.warmupSec, 2)} s warm-up, ${run.workers} worker(s)`,
    ],
    [
      "requests",
      `${fmtNum(run.requests)} (${fmtNum(run.rps)} req/s), success ${fmtPct(run.successRate * 100)}`,
    ],
    [
      "errors / late / dropped",
      `${fmtNum(errorsTotal)} / ${fmtNum(run.lateSends)} / ${fmtNum(run.droppedSends)}`,
    ],
    [
      "connections",
      `${fmtNum(run.connects)} opened, ${fmtNum(run.reconnects)} reopened` +
      (run.connectTimeMs ? `, connect p99 ${fmtMs(run.connectTimeMs.p99)}` : ""),
    ],
    [
      "stabilized",
      run.stabilizedAtMs === null
        ? "never (latency kept drifting)"
        : `after ${fmtNum(run.stabilizedAtMs / 1000, 2)} s`,
    ],
  ]));
  if (run.generatorBound) {
    body.appendChild(
      h(
        "p",
        { class: "warn" },
        "Generator-bound: more than 1% of sends went out late, so the load generator, not the target, limited this run.",
      ),
    );
  }
  body.appendChild(
    h(
      "details",
      null,
      h("summary", null, "Attack configuration"),
      h("pre", null, JSON.stringify(run.config, null, 2)),
    ),
  );
  const timeline = h("div", { class: "grid2" });
  body.appendChild(timeline);
  timelineCharts(run, timeline);
  const dist = h("div", { class: "grid2" });
  body.appendChild(dist);
  distributionCharts(run, dist);
  body.appendChild(outcomeTables(run));
  const experiment = experimentTables(run);
  if (experiment) body.appendChild(experiment);
  const tools = h("div", { class: "grid2 tools" });
  tools.appendChild(
    h("div", null, h("h3", null, "oha-style summary"), h("pre", { class: "oha" }, ohaText(run))),
  );
  tools.appendChild(h("div", null, h("h3", null, "autocannon-style tables"), autocannonTables(run)));
  body.appendChild(tools);
}

/** Latency, throughput, errors and telemetry per interval on one time axis. */
export function timelineCharts(run: PageRun, grid: HTMLElement): void {
  const iv = run.iv, maxSec = run.durationSec;
  const marks = run.stabilizedAtMs === null ? [] : [{ x: run.stabilizedAtMs / 1000, label: "stable" }];
  const series = (["p50", "p75", "p90", "p99"] as const).map((k, i) => ({
    label: k,
    data: xy(iv.t, iv[k]),
    borderColor: color(i),
    backgroundColor: color(i),
  }));
  const latency = addChart(grid, "latency per interval (ms)", {
    type: "line",
    data: { datasets: series },
    options: timeLineOptions("ms", "logarithmic", maxSec),
    plugins: [markerPlugin(marks)],
  });
  addScaleToggle(latency);
  const tput: any[] = [{
    label: "achieved req/s",
    data: xy(iv.t, iv.rps),
    borderColor: color(0),
    backgroundColor: color(0, 0.15),
    fill: true,
  }];
  if (run.targetRps) {
    tput.push({
      label: "requested req/s",
      data: times(iv.t).map((x) => ({ x, y: run.targetRps })),
      borderColor: color(2),
      borderDash: [4, 4],
    });
  }
  tput.push({
    label: "in flight",
    data: xy(iv.t, iv.inFlight),
    borderColor: color(4),
    yAxisID: "y2",
    hidden: true,
  });
  const tOpts = timeLineOptions("req/s", "linear", maxSec);
  tOpts.scales.y2 = {
    position: "right",
    beginAtZero: true,
    grid: { drawOnChartArea: false },
    display: "auto",
  };
  addChart(grid, "throughput per interval", {
    type: "line",
    data: { datasets: tput },
    options: tOpts,
    plugins: [markerPlugin(marks)],
  });
  const bars = [["errors", iv.errors], ["non-2xx", iv.non2xx], ["late sends", iv.lateSends]] as const;
  const eOpts = timeLineOptions("count", "linear", maxSec);
  eOpts.scales.x.stacked = eOpts.scales.y.stacked = true;
  eOpts.scales.x.offset = false;
  addChart(grid, "errors per interval", {
    type: "bar",
    data: {
      datasets: bars.map(([label, ys], i) => ({
        label,
        data: xy(iv.t, ys),
        backgroundColor: color(i + 1, 0.8),
        barPercentage: 1,
        categoryPercentage: 1,
      })),
    },
    options: eOpts,
    plugins: [markerPlugin(marks)],
  });
  telemetryCharts(run, grid, maxSec, marks);
}

/** CPU and memory of target processes; Redis ops, hits and misses per second. */
export function telemetryCharts(
  run: PageRun,
  grid: HTMLElement,
  maxSec: number,
  marks: Array<{ x: number; label: string }>,
): void {
  const line = (
    t: PageTelemetry,
    label: string,
    ys: Array<number | null> | undefined,
    i: number,
    axis = "y",
  ) =>
    ys
      ? [{
        label: `${t.name} ${label}`,
        data: xy(t.t, ys),
        borderColor: color(i),
        backgroundColor: color(i),
        yAxisID: axis,
      }]
      : [];
  const procs = run.telemetry.filter((t) => t.kind === "process");
  if (procs.length) {
    const datasets = procs.flatMap((t, i) => [
      ...line(t, "CPU %", t.cpuPercent, i * 2),
      ...line(t, "RSS MiB", t.rssMiB, i * 2 + 1, "y2").map((d) => ({ ...d, borderDash: [4, 3] })),
    ]);
    const opts = timeLineOptions("CPU %", "linear", maxSec);
    opts.scales.y2 = {
      position: "right",
      beginAtZero: true,
      grid: { drawOnChartArea: false },
      title: { display: true, text: "RSS MiB" },
    };
    addChart(grid, "target process", {
      type: "line",
      data: { datasets },
      options: opts,
      plugins: [markerPlugin(marks)],
    });
  }
  const redis = run.telemetry.filter((t) => t.kind === "redis");
  if (redis.length) {
    const datasets = redis.flatMap((t, i) => [
      ...line(t, "ops/s", t.opsPerSec, i * 3),
      ...line(t, "hits/s", t.hitsPerSec, i * 3 + 2),
      ...line(t, "misses/s", t.missesPerSec, i * 3 + 1),
    ]);
    addChart(grid, "redis", {
      type: "line",
      data: { datasets },
      options: timeLineOptions("per second", "linear", maxSec),
      plugins: [markerPlugin(marks)],
    });
  }
}

/** Histogram bars and the HDR percentile curve, uncorrected beside corrected when measured. */
export function distributionCharts(run: PageRun, grid: HTMLElement): void {
  addChart(grid, "latency histogram (log-spaced buckets)", {
    type: "bar",
    data: {
      labels: run.chartHistogram.map(([from]) => fmtMs(from)),
      datasets: [{
        label: "requests",
        data: run.chartHistogram.map(([, , n]) => n),
        backgroundColor: color(0, 0.7),
        barPercentage: 1,
        categoryPercentage: 1,
      }],
    },
    options: {
      plugins: {
        legend: { display: false },
        tooltip: {
          callbacks: {
            title: (items: any[]) =>
              items.map((it) =>
                `${fmtMs(run.chartHistogram[it.dataIndex][0])} – ${
                  fmtMs(run.chartHistogram[it.dataIndex][1])
                }`
              ),
          },
        },
      },
      scales: { y: { beginAtZero: true, title: { display: true, text: "requests" } } },
    },
  });
  const datasets = [{
    label: run.uncorrectedPercentiles ? "corrected (from intended send)" : "latency",
    data: percentileData(run.percentiles),
    borderColor: color(0),
    backgroundColor: color(0),
  }];
  if (run.uncorrectedPercentiles) {
    datasets.push({
      label: "uncorrected (from actual send)",
      data: percentileData(run.uncorrectedPercentiles),
      borderColor: color(1),
      backgroundColor: color(1),
    });
  }
  addChart(grid, "latency by percentile (ms)", {
    type: "line",
    data: { datasets },
    options: {
      parsing: false,
      scales: { x: ninesAxis(), y: { beginAtZero: true, title: { display: true, text: "ms" } } },
    },
  });
}

/** Status codes and error kinds (with their distinct messages) of one run. */
export function outcomeTables(run: PageRun): HTMLElement {
  const total = Object.values(run.statusCodes).reduce((a, b) => a + b, 0);
  const codes: Cell[][] = Object.entries(run.statusCodes).map(([code, n]) => [
    { text: code, cls: /^[23]/.test(code) ? "" : "bad" },
    { text: fmtNum(n), sort: n },
    { text: fmtPct(total ? (n / total) * 100 : NaN), sort: n },
  ]);
  const errs: Cell[][] = [];
  for (const [kind, n] of Object.entries(run.errors)) {
    const msgs = Object.entries(run.errorMessages[kind] ?? {});
    if (!msgs.length) errs.push([{ text: kind }, { text: "" }, { text: fmtNum(n ?? 0), sort: n ?? 0 }]);
    for (const [msg, m] of msgs) errs.push([{ text: kind }, { text: msg }, { text: fmtNum(m), sort: m }]);
  }
  return h(
    "div",
    { class: "grid2" },
    h(
      "div",
      null,
      h("h3", null, "Status codes"),
      sortableTable(
        [{ label: "status" }, { label: "responses", num: true }, { label: "share", num: true }],
        codes,
      ),
    ),
    h(
      "div",
      null,
      h("h3", null, "Errors"),
      errs.length
        ? sortableTable([{ label: "kind" }, { label: "message" }, { label: "count", num: true }], errs)
        : h("p", { class: "note" }, "No transport errors."),
    ),
  );
}

/** Bytes read per second, for the facts and tool tables. */
export function bytesPerSec(run: PageRun): string {
  return `${fmtBytes(run.bytesRead / Math.max(run.durationSec, 1e-9))}/s`;
}
