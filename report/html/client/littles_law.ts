/**
 * @module
 * Little's law for closed runs at several connection counts: mean latency vs N beside N / X, slopes compared.
 */
import type { PageData } from "../page/data.ts";
import type { PageRun } from "../page/run.ts";
import { type Cell, fmtMs, fmtNum, h, isNum, numeric, section, sortableTable } from "./dom.ts";
import { color, colored, timeChart } from "./charts.ts";
import { modelFactsOf } from "../../../results/load_models.ts";
import { fitLine, meanOf } from "../../../results/stats.ts";

/** The fields of a run this section reads (so tests can pass plain results runs). */
type LittleRun = Pick<
  PageRun,
  | "name"
  | "variant"
  | "load"
  | "sweep"
  | "sweep2"
  | "probe"
  | "incomplete"
  | "model"
  | "config"
  | "rps"
  | "latencyMs"
>;

/** One connection count of a curve, averaged over its repeats. */
interface LittlePoint {
  connections: number;
  rps: number;
  meanMs: number;
  runs: string[];
}

/** One variant's closed-model runs over the connection counts, with the fitted and predicted slopes. */
type LittleCurve = ReturnType<typeof littleCurve>;

/** The connection count of a closed-model run (the swept value, else its config); null for other models. */
export function connectionsOf(run: LittleRun): number | null {
  if (!modelFactsOf(run.model)?.closedConnections) return null;
  const swept = [run.sweep, run.sweep2].find((s) => s?.parameter === "load.connections")?.value;
  if (typeof swept === "number") return swept;
  const n = run.config?.connections;
  return typeof n === "number" ? n : null;
}

/** Curves of each variant × load whose closed-model runs cover three connection counts or more. */
export function littlesLawCurves(runs: LittleRun[]): LittleCurve[] {
  const groups = new Map<string, Array<{ run: LittleRun; n: number }>>();
  for (const run of runs) {
    const n = connectionsOf(run);
    if (n === null || run.probe || run.incomplete || !isNum(run.rps) || !isNum(run.latencyMs.mean)) continue;
    const other = [run.sweep, run.sweep2].find((s) => s && s.parameter !== "load.connections");
    const label = [run.variant ?? run.name, run.load, other ? `${other.parameter}=${other.value}` : null]
      .filter((p) => p).join(" / ");
    groups.set(label, [...(groups.get(label) ?? []), { run, n }]);
  }
  const curves: LittleCurve[] = [];
  for (const [label, members] of groups) {
    const ns = [...new Set(members.map((m) => m.n))].sort((a, b) => a - b);
    if (ns.length < 3) continue;
    const points = ns.map((n): LittlePoint => {
      const at = members.filter((m) => m.n === n).map((m) => m.run);
      const avg = (f: (r: LittleRun) => number) => meanOf(at.map(f)) ?? NaN;
      return {
        connections: n,
        rps: avg((r) => r.rps),
        meanMs: avg((r) => r.latencyMs.mean),
        runs: at.map((r) => r.name),
      };
    });
    curves.push(littleCurve(label, points));
  }
  return curves;
}

/** The slopes and throughput summary of one curve's points. */
export function littleCurve(label: string, points: LittlePoint[]) {
  const rps = points.map((p) => p.rps);
  const throughputRps = meanOf(rps) ?? NaN;
  const fit = fitLine(points.map((p) => p.connections), points.map((p) => p.meanMs));
  const ratios = points.map((p) => p.meanMs / (p.connections / p.rps * 1000));
  return {
    label,
    points,
    /** Mean throughput over the points (req/s): the X of the line L = N / X. */
    throughputRps,
    /** Lowest and highest throughput of the points, to show how flat it is. */
    minRps: Math.min(...rps),
    maxRps: Math.max(...rps),
    /** Little's slope, 1000 / X, in ms of mean latency per connection. */
    littleSlopeMs: throughputRps > 0 ? 1000 / throughputRps : NaN,
    /** Least-squares line through (N, mean latency): slope in ms per connection, intercept in ms. */
    fitSlopeMs: fit.slope,
    fitInterceptMs: fit.intercept,
    /** Coefficient of determination of the fitted line (1 = the points lie on it). */
    r2: fit.r2,
    /** Lowest and highest mean latency / (N / X) over the points, each with its own X: 1 is Little's law. */
    pointRatio: [Math.min(...ratios), Math.max(...ratios)] as [number, number],
  };
}

export function littleCells(c: LittleCurve): Cell[] {
  const ratio = c.fitSlopeMs / c.littleSlopeMs;
  const first = c.points[0], last = c.points[c.points.length - 1];
  return [
    { text: c.label, cls: "name" },
    { text: `${fmtNum(first.connections, 0)}–${fmtNum(last.connections, 0)}`, sort: last.connections },
    { text: fmtNum(c.throughputRps, 0), sort: c.throughputRps },
    { text: `${fmtNum(c.minRps, 0)}–${fmtNum(c.maxRps, 0)}`, sort: c.maxRps / c.minRps },
    { text: `${fmtMs(first.meanMs)} → ${fmtMs(last.meanMs)}`, sort: last.meanMs / first.meanMs },
    { text: fmtNum(c.fitSlopeMs, 3), sort: c.fitSlopeMs },
    { text: fmtNum(c.littleSlopeMs, 3), sort: c.littleSlopeMs },
    { text: isNum(ratio) ? fmtNum(ratio, 2) : "–", sort: ratio },
    { text: fmtNum(c.r2, 3), sort: c.r2 },
    { text: `${fmtNum(c.pointRatio[0], 2)}–${fmtNum(c.pointRatio[1], 2)}`, sort: c.pointRatio[1] },
  ];
}

/** Chart datasets of one curve: measured points, Little's line N / X, and the fitted line. */
export function littleDatasets(c: LittleCurve, i: number): any[] {
  const maxN = c.points[c.points.length - 1].connections;
  const little = [{ x: 0, y: 0 }, { x: maxN, y: maxN * c.littleSlopeMs }];
  const fitted = [{ x: 0, y: c.fitInterceptMs }, { x: maxN, y: c.fitInterceptMs + maxN * c.fitSlopeMs }];
  return [
    colored(i, `${c.label}: measured mean`, c.points.map((p) => ({ x: p.connections, y: p.meanMs })), {
      showLine: false,
      pointRadius: 4,
    }),
    colored(i, `${c.label}: Little L = N / ${fmtNum(c.throughputRps, 0)} req/s`, little, {
      borderColor: color(i, 0.7),
      borderDash: [6, 4],
      pointRadius: 0,
    }),
    colored(i, `${c.label}: fitted ${fmtNum(c.fitSlopeMs, 3)} ms per connection`, fitted, {
      borderColor: color(i, 0.45),
      borderDash: [2, 3],
      pointRadius: 0,
    }),
  ];
}

/** The section, or null when no variant has closed-model runs at three or more connection counts. */
export function renderLittlesLaw(data: PageData): HTMLElement | null {
  const curves = littlesLawCurves(data.runs);
  if (!curves.length) return null;
  const sec = section(
    "littles-law",
    "Little's law: mean latency against connections",
    "Closed model, no think time: N connections keep N requests in flight, so mean latency L = N / X. " +
      "With throughput X flat (the server saturated), latency grows in proportion to N. Dashed: N / X with X " +
      "the variant's mean throughput over its points; dotted: the least-squares line through the points; " +
      "the slopes are in ms of mean latency per connection (Little's: 1000 / X). " +
      "A slope ratio (fitted / Little's) near 1 with a narrow throughput range is the finding. The last " +
      "column checks the law at each point with that point's own X: near 1 even where X is not flat.",
  );
  const headers = [
    { label: "variant" },
    ...numeric(
      "N",
      "X (mean req/s)",
      "X range",
      "mean latency",
      "fitted ms / N",
      "Little ms / N",
      "slope ratio",
      "r²",
      "L ÷ (N/X)",
    ),
  ];
  sec.appendChild(sortableTable(headers, curves.map(littleCells), "littles-law"));
  const grid = h("div", { class: "grid2" });
  sec.appendChild(grid);
  littleCharts(grid, curves);
  return sec;
}

/** The two charts of the section: mean latency and throughput, each against the connection count. */
export function littleCharts(grid: HTMLElement, curves: LittleCurve[]): void {
  const options = (text: string, y: any) => ({
    parsing: false,
    scales: {
      x: { type: "linear", beginAtZero: true, title: { display: true, text: "connections (N)" } },
      y: { ...y, title: { display: true, text } },
    },
  });
  const measured = curves.flatMap((c, i) => littleDatasets(c, i));
  timeChart(grid, "Mean latency vs connections", measured, options("mean latency (ms)", { min: 0 }), []);
  const datasets = curves.map((c, i) =>
    colored(i, c.label, c.points.map((p) => ({ x: p.connections, y: p.rps })), { pointRadius: 4 })
  );
  timeChart(grid, "Throughput vs connections", datasets, options("req/s (X)", { beginAtZero: true }), []);
}
