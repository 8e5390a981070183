/**
 * @module
 * Charts across the experiment: bars per variant, the percentile overlay, one chart per sweep with its knee.
 */
import type { PageData } from "../page/data.ts";
import type { OverviewMetric } from "../page/overview.ts";
import type { PageSweep } from "../page/sweeps.ts";
import { type Cell, fmtMs, fmtNum, fmtSweepValue, h, numeric, section, sortableTable } from "./dom.ts";
import { sendCells, sendHeaders, verdictBadge } from "./sections.ts";
import { colored, metricBarChart, percentileChart, rightAxisScale, timeChart } from "./charts.ts";

/** Bar charts of req/s, mean, p99 and success per load and sweep point (x) and variant (series). */
export function renderComparisonCharts(data: PageData): HTMLElement | null {
  const { labels, series } = data.comparison;
  if (labels.length < 2 && series.length < 2) return null;
  const swept = labels.some((l) => l.includes("="));
  const sec = section(
    "comparison",
    swept ? "Across variants, loads and sweep points" : "Across variants and loads",
    `x: ${swept ? "each load and sweep point (parameter=value)" : "each load"}, one bar per variant ` +
      `(${labels.length} point(s) × ${series.length} series). Whiskers: 95% CI over repeats. A y axis whose ` +
      "values span more than two decades starts logarithmic (the button switches it).",
  );
  const grid = h("div", { class: "grid2" });
  sec.appendChild(grid);
  const byKey = new Map(data.overview.map((r) => [r.key, r]));
  const charts: Array<[OverviewMetric, string, "ms" | "%" | "req/s"]> = [
    ["rps", "throughput (req/s)", "req/s"],
    ["mean", "mean latency (ms)", "ms"],
    ["p99", "p99 latency (ms)", "ms"],
    ["success", "success (%)", "%"],
  ];
  const of = (m: OverviewMetric, k: string | null, f: "mean" | "ci95") =>
    k ? byKey.get(k)?.metrics[m][f] ?? null : null;
  for (const [m, title, unit] of charts) {
    const bars = series.map((s) => ({
      name: s.name,
      values: s.rows.map((k) => of(m, k, "mean")),
      ci: s.rows.map((k) => of(m, k, "ci95")),
    }));
    metricBarChart(grid, title, labels, bars, unit);
  }
  return sec;
}

/** The HDR percentile plot of the runs ticked in the overview (first repeat of each row). */
export function renderOverlay(data: PageData, container: HTMLElement): void {
  const ticked = [...document.querySelectorAll<HTMLInputElement>("#overview input[type=checkbox]")]
    .filter((b) => b.checked).map((b) => b.dataset.group);
  const curves = data.overview.filter((r) => ticked.includes(r.key)).map((row) => ({
    label: row.label,
    points: data.runs.find((r) => r.name === row.runs[0])!.percentiles,
  }));
  container.replaceChildren();
  if (!curves.length) {
    container.appendChild(
      h("p", { class: "note" }, "Tick runs in the overview to compare their distributions."),
    );
    return;
  }
  percentileChart(container, "latency by percentile, chosen runs (ms)", curves, "logarithmic", "wide");
}

/** One chart per sweep: achieved req/s (and requested, for rate sweeps) and p99 against the parameter. */
export function renderSweeps(data: PageData): HTMLElement | null {
  if (!data.sweeps.length) return null;
  const sec = section(
    "sweeps",
    "Sweeps",
    "Knee: for rate sweeps the highest requested rate still sustained (achieved ≥ 95% of requested, p99 " +
      "within 3× of the lowest rate's); otherwise the point farthest from the chord of the normalized req/s curve." +
      (data.sweeps.some((sw) => sw.categorical)
        ? " A sweep over words (such as protocols) is drawn as bars per value, in the file's order, with no knee."
        : ""),
  );
  const grid = h("div", { class: "grid2" });
  sec.appendChild(grid);
  for (const sw of data.sweeps) {
    if (sw.categorical) categoricalSweepCharts(grid, sw);
    else numericSweepChart(grid, sw);
  }
  sec.appendChild(sweepTable(data.sweeps));
  const knees = kneeReasons(data.sweeps);
  if (knees) sec.appendChild(knees);
  return sec;
}

/** A sweep over numbers as lines against the parameter (achieved and requested req/s, p99 on its own
 * axis), with its knee marked when it has one. */
export function numericSweepChart(grid: HTMLElement, sw: PageSweep): void {
  const pts = sw.points;
  const kneeX = sw.knee === null ? null : pts[sw.knee].x;
  const marks = typeof kneeX === "number" ? [{ x: kneeX, label: `knee ${fmtNum(kneeX)}` }] : [];
  const line = (label: string, i: number, yAxisID: string, ys: Array<number | null>) =>
    colored(i, label, pts.map((p, j) => ({ x: p.x, y: ys[j] })), { yAxisID, pointRadius: 3 });
  const datasets: any[] = [
    line("achieved req/s", 0, "y", pts.map((p) => p.rps)),
    line("p99 (ms)", 1, "y2", pts.map((p) => p.p99Ms)),
  ];
  const requested = pts.map((p) => ({ x: p.x, y: p.targetRps ?? p.x }));
  if (sw.isRate) {
    datasets.push(colored(2, "requested req/s", requested, { borderDash: [4, 4], yAxisID: "y" }));
  }
  timeChart(grid, `${sw.title} sweep`, datasets, {
    parsing: false,
    scales: {
      x: { type: "linear", title: { display: true, text: sw.parameter } },
      y: { beginAtZero: true, title: { display: true, text: "req/s" } },
      y2: { ...rightAxisScale("p99 ms"), type: "logarithmic", beginAtZero: false },
    },
  }, marks);
}

/** Why each sweep has the knee it has (or none), one line per sweep that says; null when none does. */
export function kneeReasons(sweeps: PageSweep[]): HTMLElement | null {
  const reasons = sweeps.filter((sw) => sw.kneeReason !== null);
  if (!reasons.length) return null;
  const knee = (sw: PageSweep) => sw.knee === null ? "none" : fmtSweepValue(sw.points[sw.knee].x);
  const text = (sw: PageSweep) =>
    sw.categorical ? `${sw.title}: ${sw.kneeReason}` : `${sw.title}: knee ${knee(sw)} — ${sw.kneeReason}`;
  return h("ul", { class: "note knees" }, ...reasons.map((sw) => h("li", null, text(sw))));
}

/** A sweep over words as categories in the file's order: req/s and p99 as bars, no line and no knee. */
export function categoricalSweepCharts(grid: HTMLElement, sw: PageSweep): void {
  const labels = sw.points.map((p) => fmtSweepValue(p.x));
  const rps = sw.points.map((p) => p.rps), p99 = sw.points.map((p) => p.p99Ms);
  const title = `${sw.title} sweep: achieved req/s`;
  metricBarChart(grid, title, labels, [{ name: "achieved req/s", values: rps }], "req/s");
  metricBarChart(grid, `${sw.title} sweep: p99`, labels, [{ name: "p99", values: p99 }], "ms");
}

/** Every sweep point in one table with sends beside the achieved rate, never read off the curve alone. */
export function sweepTable(sweeps: PageSweep[]): HTMLElement {
  const headers = [
    { label: "sweep" },
    { label: "at", num: true },
    ...sendHeaders(),
    ...numeric("achieved req/s", "p99"),
  ];
  const rows = sweeps.flatMap((sw) =>
    sw.rows.map((row): Cell[] => [
      { text: sw.title },
      { text: `${sw.parameter}=${fmtSweepValue(row.x)}`, sort: row.x },
      { node: verdictBadge(row.verdict), sort: row.verdict },
      ...sendCells(row),
      { text: fmtNum(row.rps, 0), sort: row.rps },
      { text: fmtMs(row.p99Ms), sort: row.p99Ms },
    ])
  );
  return sortableTable(headers, rows, "sweep-points");
}
