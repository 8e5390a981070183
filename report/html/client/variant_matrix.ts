/**
 * @module
 * Variants × loads at a glance: req/s with its CI, runtime, stabilization and first interval vs steady state.
 */
import type { PageData } from "../page/data.ts";
import type { PageRun } from "../page/run.ts";
import { type Cell, fmtNum, h, isNum, numeric, section, sortableTable } from "./dom.ts";
import { addScaleToggle, colored, timeChart, timeLineOptions, times } from "./charts.ts";
import { meanOf, median } from "../../../results/stats.ts";
import { fixedOrDash } from "../../../results/text_format.ts";

/** The variants (rows) and loads (columns), in the order the runs first name them. */
type MatrixAxes = NonNullable<ReturnType<typeof matrixAxes>>;

/** Finished runs of a variant and a load, outside sweeps and capacity-search probes. */
export function matrixRuns(runs: PageRun[]): PageRun[] {
  return runs.filter((r) =>
    !r.probe && !r.incomplete && !r.sweep && r.variant !== undefined && r.load !== undefined
  );
}

/** The axes, or null with fewer than two variants or two loads (the overview says it all then). */
export function matrixAxes(runs: PageRun[]) {
  const mine = matrixRuns(runs);
  const variants = [...new Set(mine.map((r) => r.variant!))];
  const loads = [...new Set(mine.map((r) => r.load!))];
  return variants.length >= 2 && loads.length >= 2 ? { variants, loads } : null;
}

/** The runtime(s) that served `variant` (`node v20.20.2`, `deno 2.9.6 (npm compat)`), else its kind. */
export function runtimeOf(runs: PageRun[], variant: string): string {
  const names = matrixRuns(runs).filter((r) => r.variant === variant)
    .map((r) => r.targetInfo?.runtime ?? (r.targetInfo ? `${r.targetInfo.kind} (runtime not known)` : "–"));
  return [...new Set(names)].join(", ");
}

/** Which runtime served each target (`express: node v20.20.2; builtin: deno 2.9.6`); null when unknown. */
export function targetRuntimes(runs: PageRun[]): string | null {
  const pairs = new Set<string>();
  for (const r of runs) {
    if (r.targetInfo?.runtime) pairs.add(`${r.variant ?? r.name}: ${r.targetInfo.runtime}`);
  }
  return pairs.size ? [...pairs].join("; ") : null;
}

/** A warning when example apps ran under Deno's npm compatibility instead of Node, with the fix. */
export function npmCompatNote(runs: PageRun[]): string | null {
  const apps = new Set(
    runs.filter((r) => r.targetInfo?.kind === "example" && /npm compat/.test(r.targetInfo.runtime ?? ""))
      .map((r) => r.variant ?? r.name),
  );
  if (!apps.size) return null;
  return `${[...apps].join(", ")} ran under Deno's npm compatibility, not Node (Node's packages were not ` +
    "installed in examples/, or node was not on PATH): framework numbers differ several-fold between the " +
    "two. Run 'npm install --prefix examples' once to measure them under Node.";
}

/** The run's first interval over the median of the later ones, in p50 or req/s (req/s shows warm-up best). */
export function firstToSteady(run: PageRun, column: "p50" | "rps" = "p50"): number {
  const values = column === "rps" ? run.iv.rps : run.iv.p50.filter(isNum);
  if (values.length < 2) return NaN;
  const steady = median(values.slice(1));
  return steady > 0 ? values[0] / steady : NaN;
}

/** Mean req/s ± 95% CI of each variant (rows, with its runtime) and load (columns), from the overview. */
export function rpsCells(data: PageData, axes: MatrixAxes): Cell[][] {
  return axes.variants.map((v) => [
    { text: v, cls: "name" },
    { text: runtimeOf(data.runs, v) },
    ...axes.loads.map((l): Cell => {
      const row = data.overview.find((o) => o.variant === v && o.load === l && !o.key.includes("="));
      const m = row?.metrics.rps;
      if (!m || !isNum(m.mean)) return { text: "–" };
      const ci = m.n > 1 && isNum(m.ci95) ? ` ± ${fmtNum(m.ci95, 0)}` : "";
      return { text: `${fmtNum(m.mean, 0)}${ci}`, sort: m.mean, title: `${m.n} run(s), 95% CI` };
    }),
  ]);
}

/** Mean stabilization time in s per variant and load, and over every load; "(k of n)" when some never did. */
export function stabilizationCells(runs: PageRun[], axes: MatrixAxes): Cell[][] {
  const cell = (of: PageRun[]): Cell => {
    const at = of.map((r) => r.stabilizedAtMs).filter(isNum);
    if (!at.length) return { text: "–", sort: NaN, title: "no run stabilized within its duration" };
    const meanSec = meanOf(at)! / 1000;
    const some = at.length < of.length ? ` (${at.length} of ${of.length})` : "";
    return {
      text: `${fixedOrDash(meanSec, 2)} s${some}`,
      sort: meanSec,
      title: `mean over ${at.length} run(s)`,
    };
  };
  const mine = matrixRuns(runs);
  return axes.variants.map((v) => [
    { text: v, cls: "name" },
    ...axes.loads.map((l) => cell(mine.filter((r) => r.variant === v && r.load === l))),
    cell(mine.filter((r) => r.variant === v)),
  ]);
}

/** First interval over steady state in p50 and in req/s, medians over repeats, per variant and load. */
export function warmupRatioCells(runs: PageRun[], axes: MatrixAxes): Cell[][] {
  const mine = matrixRuns(runs);
  return axes.variants.map((v) => [
    { text: v, cls: "name" },
    ...axes.loads.map((l): Cell => {
      const of = mine.filter((r) => r.variant === v && r.load === l);
      const p50 = of.map((r) => firstToSteady(r, "p50")).filter(isNum);
      const rps = of.map((r) => firstToSteady(r, "rps")).filter(isNum);
      const [a, b] = [median(p50), median(rps)];
      const fmt = (x: number) => (isNum(x) ? `${fixedOrDash(x, 2)}×` : "–");
      const slower = [p50.filter((x) => x >= 1).length, rps.filter((x) => x < 1).length];
      return {
        text: `p50 ${fmt(a)} · req/s ${fmt(b)}`,
        sort: a,
        title: `slower at the start: by p50 in ${slower[0]} of ${p50.length} run(s), ` +
          `by req/s in ${slower[1]} of ${rps.length}`,
      };
    }),
  ]);
}

/** Per variant, the median over repeats of each interval's p50, as points (gaps stay gaps). */
export function medianP50Series(runs: PageRun[], variant: string, load: string) {
  const of = matrixRuns(runs).filter((r) => r.variant === variant && r.load === load);
  if (!of.length) return [];
  const longest = of.reduce((a, b) => (b.iv.p50.length > a.iv.p50.length ? b : a));
  const xs = times(longest.iv.t);
  return xs.map((x, i) => {
    const y = median(of.map((r) => r.iv.p50[i] ?? NaN));
    return { x, y: isNum(y) ? y : null };
  });
}

/** The section, or null when the runs are not variants × loads. */
export function renderVariantMatrix(data: PageData): HTMLElement | null {
  const axes = matrixAxes(data.runs);
  if (!axes) return null;
  const sec = section(
    "variant-matrix",
    "Variants × loads",
    "Mean req/s over repeats with its 95% confidence interval (Student's t), and the runtime that served " +
      "each variant. Stabilization: when a run's median latency settled within ±20% of its last third " +
      "(the mark in each run's latency chart), the mean over runs. First / steady: the first 250 ms " +
      "interval's median latency and req/s divided by the median of the later intervals', medians over " +
      "repeats: a run that " +
      "starts slower, as a JIT warms up, has p50 above 1× and req/s below 1× (the first interval's p50 " +
      "is also lowered while a closed loop's queue fills, so req/s is the steadier sign).",
  );
  const loadHeaders = numeric(...axes.loads);
  sec.appendChild(h("h3", null, "Requests per second"));
  const rpsHeaders = [{ label: "variant" }, { label: "runtime" }, ...loadHeaders];
  sec.appendChild(sortableTable(rpsHeaders, rpsCells(data, axes), "matrix-rps"));
  sec.appendChild(h("h3", null, "Stabilization time"));
  const stableHeaders = [{ label: "variant" }, ...numeric(...axes.loads, "all loads")];
  sec.appendChild(sortableTable(stableHeaders, stabilizationCells(data.runs, axes), "matrix-stabilization"));
  sec.appendChild(h("h3", null, "First interval / steady state"));
  sec.appendChild(
    sortableTable([{ label: "variant" }, ...loadHeaders], warmupRatioCells(data.runs, axes), "matrix-warmup"),
  );
  sec.appendChild(h("h3", null, "Warm-up: median latency per interval"));
  const grid = h("div", { class: "grid2" });
  sec.appendChild(grid);
  for (const load of axes.loads) {
    const datasets = axes.variants.map((v, i) => colored(i, v, medianP50Series(data.runs, v, load)));
    const title = `${load}: median latency per interval (ms), median over repeats`;
    addScaleToggle(timeChart(grid, title, datasets, timeLineOptions("ms", "logarithmic"), []));
  }
  return sec;
}
