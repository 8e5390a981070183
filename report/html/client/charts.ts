/**
 * @module
 * Chart helpers of report.html over the inlined Chart.js global: themed factory, palette, plugins, log/linear
 * choice and the percentile axis. No module-level state: the page inlines functions by source.
 */
import type { TimeAxis } from "../page/run.ts";
import { fmtMs, fmtNum, h } from "./dom.ts";
import { fixedOrDash, formatSignificant, isHuge } from "../../../results/text_format.ts";
import { maxOf, minOf } from "../../../system/large_arrays.ts";

// The UMD bundle defines this global; its types are not worth pulling into the page's code.
declare const Chart: any;

/** The i-th series colour; the same variant keeps its colour across charts. */
export function color(i: number, alpha = 1): string {
  const hues = [212, 12, 140, 40, 280, 180, 330, 90, 250, 0];
  const hue = hues[i % hues.length];
  return `hsla(${hue}, 70%, ${i >= hues.length ? 35 : 50}%, ${alpha})`;
}

/** A series in the i-th colour: `label` over `data`, with `extra` options (its axis, dashes, radius). */
export function colored(i: number, label: string, data: unknown[], extra: Record<string, unknown> = {}): any {
  return { label, data, borderColor: color(i), backgroundColor: color(i), ...extra };
}

/** Reads the page's CSS colours so charts follow light and dark mode (and print). */
export function applyChartTheme(): void {
  const css = getComputedStyle(document.documentElement);
  Chart.defaults.color = css.getPropertyValue("--muted").trim() || "#555";
  Chart.defaults.borderColor = css.getPropertyValue("--grid").trim() || "#ddd";
  Chart.defaults.font.family = css.getPropertyValue("--font").trim() || "system-ui, sans-serif";
  Chart.defaults.animation = false;
  Chart.defaults.maintainAspectRatio = false;
  Chart.defaults.plugins.legend.labels.boxWidth = 12;
  Chart.defaults.elements.point.radius = 0;
  Chart.defaults.elements.point.hitRadius = 6;
  Chart.defaults.elements.line.borderWidth = 1.6;
  Chart.defaults.interaction = { mode: "nearest", axis: "x", intersect: false };
  for (const chart of Object.values(Chart.instances) as any[]) {
    chart.options.color = Chart.defaults.color;
    for (const scale of Object.values(chart.options.scales ?? {}) as any[]) {
      if (scale.grid) scale.grid.color = Chart.defaults.borderColor;
      if (scale.ticks) scale.ticks.color = Chart.defaults.color;
    }
    chart.update("none");
  }
}

/** Adds a titled chart box to `parent` and draws `config` in it; returns the Chart. */
export function addChart(parent: HTMLElement, title: string, config: any, cls = ""): any {
  const canvas = h("canvas", { role: "img", "aria-label": title }) as HTMLCanvasElement;
  const area = h("div", { class: "chart-area" }, canvas);
  parent.appendChild(h("figure", { class: `chart ${cls}`.trim() }, h("figcaption", null, title), area));
  return new Chart(canvas, config);
}

/** Adds a "y: log / y: linear" switch to the chart's caption. */
export function addScaleToggle(chart: any): void {
  const label = () => `y: ${chart.options.scales.y.type === "logarithmic" ? "log" : "linear"}`;
  const button = h("button", { type: "button", class: "toggle", title: "switch the y axis scale" }, label());
  button.addEventListener("click", () => {
    const y = chart.options.scales.y;
    y.type = y.type === "logarithmic" ? "linear" : "logarithmic";
    y.beginAtZero = y.type === "linear";
    // A log axis starts below the smallest bar, or the bar vanishes.
    if (chart.config.type === "bar") {
      y.min = y.type === "logarithmic"
        ? logFloor(chart.data.datasets.flatMap((d: any) => d.data))
        : undefined;
    }
    button.textContent = label();
    chart.update();
  });
  chart.canvas.closest("figure")?.querySelector("figcaption")?.appendChild(button);
}

export function destroyCharts(root: HTMLElement): void {
  for (const canvas of root.querySelectorAll("canvas")) Chart.getChart(canvas)?.destroy();
}

/** Labelled instants on a chart's x axis (stabilization point, knee, steering changes). */
export type Marks = Array<{ x: number; label: string }>;

/** A plugin drawing labelled vertical lines at x values. */
export function markerPlugin(marks: Marks): any {
  return {
    id: "loadlabMarkers",
    afterDatasetsDraw(chart: any) {
      const { ctx, chartArea, scales } = chart;
      for (const m of marks) {
        const px = scales.x.getPixelForValue(m.x);
        if (!Number.isFinite(px) || px < chartArea.left || px > chartArea.right) continue;
        ctx.save();
        ctx.strokeStyle = getComputedStyle(document.documentElement).getPropertyValue("--accent") || "#c60";
        ctx.setLineDash([5, 4]);
        ctx.beginPath();
        ctx.moveTo(px, chartArea.top);
        ctx.lineTo(px, chartArea.bottom);
        ctx.stroke();
        ctx.fillStyle = ctx.strokeStyle;
        ctx.font = "11px system-ui, sans-serif";
        ctx.fillText(m.label, Math.min(px + 4, chartArea.right - 90), chartArea.top + 12);
        ctx.restore();
      }
    },
  };
}

/** A plugin drawing ±CI whiskers on bar datasets that carry a `ci` array beside `data`. */
export function errorBarPlugin(): any {
  return {
    id: "loadlabErrorBars",
    afterDatasetsDraw(chart: any) {
      const { ctx } = chart;
      chart.data.datasets.forEach((ds: any, i: number) => {
        const meta = chart.getDatasetMeta(i);
        if (!ds.ci || meta.hidden) return;
        const y = chart.scales[meta.yAxisID ?? "y"];
        meta.data.forEach((bar: any, j: number) => {
          const [v, ci] = [ds.data[j], ds.ci[j]];
          if (typeof v !== "number" || typeof ci !== "number" || !(ci > 0)) return;
          const top = y.getPixelForValue(v + ci);
          // A log axis cannot place 0 or below: the whisker then runs to the axis' bottom.
          const low = y.getPixelForValue(Math.max(v - ci, 0));
          const bottom = Number.isFinite(low)
            ? Math.min(low, chart.chartArea.bottom)
            : chart.chartArea.bottom;
          ctx.save();
          ctx.strokeStyle = Chart.defaults.color;
          ctx.beginPath();
          ctx.moveTo(bar.x, top);
          ctx.lineTo(bar.x, bottom);
          ctx.moveTo(bar.x - 4, top);
          ctx.lineTo(bar.x + 4, top);
          ctx.moveTo(bar.x - 4, bottom);
          ctx.lineTo(bar.x + 4, bottom);
          ctx.stroke();
          ctx.restore();
        });
      });
    },
  };
}

/** "logarithmic" when positive values span more than two decades, else "linear". */
export function autoScaleType(values: Array<number | null | undefined>): "logarithmic" | "linear" {
  const positive = values.filter((v): v is number => typeof v === "number" && Number.isFinite(v) && v > 0);
  if (positive.length < 2) return "linear";
  return maxOf(positive) / minOf(positive) > 100 ? "logarithmic" : "linear";
}

/** The power of ten strictly below the smallest positive value (a log bar axis' bottom); 1 for none. */
export function logFloor(values: Array<number | null | undefined>): number {
  const positive = values.filter((v): v is number => typeof v === "number" && Number.isFinite(v) && v > 0);
  return positive.length ? 10 ** (Math.ceil(Math.log10(minOf(positive))) - 1) : 1;
}

/** A bar's value as printed on it: milliseconds, a percentage or a count. */
export function barLabel(value: number, unit: "ms" | "%" | "req/s"): string {
  if (unit === "ms") return fmtMs(value);
  if (unit === "%") {
    return `${isHuge(value) || value >= 99.95 ? fixedOrDash(value, 1) : formatSignificant(value)}%`;
  }
  return fmtNum(value, value < 10 ? 1 : 0);
}

/** A plugin printing each bar's value above it (upright or inside when there is no room). */
export function barValuePlugin(unit: "ms" | "%" | "req/s"): any {
  return {
    id: "loadlabBarValues",
    afterDatasetsDraw(chart: any) {
      const { ctx, chartArea } = chart;
      ctx.save();
      ctx.fillStyle = Chart.defaults.color;
      ctx.font = "10px system-ui, sans-serif";
      chart.data.datasets.forEach((ds: any, i: number) => {
        const meta = chart.getDatasetMeta(i);
        if (meta.hidden || meta.type !== "bar") return;
        meta.data.forEach((bar: any, j: number) => {
          const v = ds.data[j];
          if (typeof v !== "number" || !Number.isFinite(v)) return;
          const text = barLabel(v, unit);
          const width = ctx.measureText(text).width;
          const top = Math.max(Math.min(bar.y, bar.base), chartArea.top);
          const room = top - chartArea.top;
          if (width + 2 <= bar.width) {
            ctx.textAlign = "center";
            ctx.textBaseline = room >= 12 ? "bottom" : "top";
            ctx.fillText(text, bar.x, room >= 12 ? top - 2 : top + 2);
            return;
          }
          ctx.save();
          ctx.translate(bar.x, room >= width + 4 ? top - 3 : top + 3);
          ctx.rotate(-Math.PI / 2);
          ctx.textAlign = room >= width + 4 ? "left" : "right";
          ctx.textBaseline = "middle";
          ctx.fillText(text, 0, 0);
          ctx.restore();
        });
      });
      ctx.restore();
    },
  };
}

/** One bar series of `metricBarChart`: a variant's values per label, with optional 95% CI half-widths. */
interface BarSeries {
  name: string;
  values: Array<number | null>;
  ci?: Array<number | null>;
}

/** A grouped bar chart of one metric with CI whiskers, printed values and an automatic log axis. */
export function metricBarChart(
  parent: HTMLElement,
  title: string,
  labels: string[],
  series: BarSeries[],
  unit: "ms" | "%" | "req/s",
): any {
  const datasets = series.map((s, i) =>
    colored(i, s.name, s.values, { ci: s.ci, backgroundColor: color(i, 0.75) })
  );
  const type = autoScaleType(series.flatMap((s) => s.values));
  // Leave room for the whiskers and the printed values, which Chart.js does not count when it scales.
  const top = Math.max(0, maxOf(series.flatMap((s) => s.values.map((v, j) => (v ?? 0) + (s.ci?.[j] ?? 0)))));
  const chart = addChart(parent, title, {
    type: "bar",
    data: { labels, datasets },
    options: {
      interaction: { mode: "index", intersect: false },
      layout: { padding: { top: 14 } },
      scales: {
        y: {
          type,
          beginAtZero: type === "linear",
          min: type === "logarithmic" ? logFloor(series.flatMap((s) => s.values)) : undefined,
          max: unit === "%" ? 100 : undefined,
          suggestedMax: unit === "%" ? undefined : top * (type === "linear" ? 1.08 : 2),
          title: { display: true, text: unit },
        },
      },
    },
    plugins: [errorBarPlugin(), barValuePlugin(unit)],
  });
  addScaleToggle(chart);
  return chart;
}

/** Maps a percentile (0..100) to the HDR plot's x: 1 / (1 - p), so each extra nine is one decade. */
export function nines(percentile: number): number {
  return 1 / Math.max(1e-7, 1 - percentile / 100);
}

/** The log-scaled x axis of an HDR percentile plot, labelled in percent up to p99.999. */
export function ninesAxis(): any {
  return {
    type: "logarithmic",
    min: 1,
    max: 1e5,
    title: { display: true, text: "percentile" },
    afterBuildTicks(axis: any) {
      axis.ticks = [1, 2, 10, 100, 1e3, 1e4, 1e5].map((value) => ({ value }));
    },
    ticks: {
      callback(value: number) {
        const p = (1 - 1 / value) * 100;
        return value === 1 ? "0%" : `${formatSignificant(p, 6)}%`;
      },
    },
  };
}

/** An HDR percentile plot of `curves` (percentile, ms), each in its series colour, y in ms. */
export function percentileChart(
  parent: HTMLElement,
  title: string,
  curves: Array<{ label: string; points: Array<[number, number]> }>,
  yType = "linear",
  cls = "",
): any {
  // p100 cannot be placed on the nines axis: left out.
  const datasets = curves.map((c, i) =>
    colored(i, c.label, c.points.filter(([p]) => p < 100).map(([p, ms]) => ({ x: nines(p), y: ms })))
  );
  const y = { type: yType, beginAtZero: yType === "linear", title: { display: true, text: "ms" } };
  const options = { parsing: false, scales: { x: ninesAxis(), y } };
  return timeChart(parent, title, datasets, options, [], "line", cls);
}

/** Common options of a line chart over seconds since the measured start. */
export function timeLineOptions(yTitle: string, yType = "linear", maxSec?: number): any {
  return {
    parsing: false,
    normalized: true,
    scales: {
      x: { type: "linear", min: 0, max: maxSec, title: { display: true, text: "seconds" } },
      y: { type: yType, title: { display: true, text: yTitle }, beginAtZero: yType === "linear" },
    },
    plugins: { tooltip: { callbacks: {} } },
  };
}

/** A chart of `datasets` with `marks` drawn on it (labelled instants on its x axis), `cls` on its box. */
export function timeChart(
  grid: HTMLElement,
  title: string,
  datasets: any[],
  options: any,
  marks: Marks,
  type = "line",
  cls = "",
): any {
  return addChart(grid, title, { type, data: { datasets }, options, plugins: [markerPlugin(marks)] }, cls);
}

/** A right-hand y axis from 0 that draws no grid of its own, titled when `title` is given. */
export function rightAxisScale(title?: string): any {
  const axis: any = { position: "right", beginAtZero: true, grid: { drawOnChartArea: false } };
  if (title !== undefined) axis.title = { display: true, text: title };
  return axis;
}

/** Expands a stored time axis into seconds. */
export function times(axis: TimeAxis): number[] {
  if (Array.isArray(axis)) return axis;
  return Array.from(
    { length: axis.count },
    (_, i) => Math.round((axis.startSec + i * axis.stepSec) * 1000) / 1000,
  );
}

/** Point radii for a series with gaps: a dot where a value stands alone, as a line needs two. */
export function isolatedPointRadii(data: Array<{ y: number | null }>, radius = 3): number[] {
  const has = (i: number) => i >= 0 && i < data.length && data[i].y !== null;
  return data.map((_, i) => (has(i) && !has(i - 1) && !has(i + 1) ? radius : 0));
}

/** Index-aligned x and y as chart points; null stays a gap, values past a shorter column are left out. */
export function xy(axis: TimeAxis, ys: Array<number | null>): Array<{ x: number; y: number | null }> {
  const xs = times(axis);
  const out: Array<{ x: number; y: number | null }> = [];
  for (let i = 0; i < xs.length; i++) {
    const y = ys[i];
    if (y === null) out.push({ x: xs[i], y: null });
    else if (typeof y === "number" && Number.isFinite(y)) out.push({ x: xs[i], y });
  }
  return out;
}
