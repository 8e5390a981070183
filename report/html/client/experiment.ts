/**
 * @module
 * The parts of report.html only experiments produce: phases, flows, target counters and capacity searches.
 */
import type { PageData } from "../page/data.ts";
import type { PageRun } from "../page/run.ts";
import {
  type Cell,
  facts,
  fmtChange,
  fmtMs,
  fmtNum,
  fmtPct,
  h,
  isNum,
  numeric,
  section,
  sortableTable,
} from "./dom.ts";
import { metricBarChart } from "./charts.ts";
import { fixedOrDash } from "../../../results/text_format.ts";
import { meanOf } from "../../../results/stats.ts";

/** A phase's p95, p99, success, timeouts and 5xx cells, the same in both phase tables. */
export function phaseOutcomeCells(p: NonNullable<PageRun["phases"]>[number]): Cell[] {
  const fivexx = Object.entries(p.statusCodes).reduce((a, [c, n]) => (/^5/.test(c) ? a + n : a), 0);
  return [
    { text: fmtMs(p.latencyMs.p95), sort: p.latencyMs.p95 ?? NaN },
    { text: fmtMs(p.latencyMs.p99), sort: p.latencyMs.p99 ?? NaN },
    { text: fmtPct(isNum(p.successRate) ? p.successRate * 100 : NaN), sort: p.successRate ?? NaN },
    { text: fmtNum(p.timeouts), sort: p.timeouts, cls: p.timeouts ? "bad" : "" },
    { text: fmtNum(fivexx), sort: fivexx, cls: fivexx ? "bad" : "" },
  ];
}

/** The run's phases, flows and target information, or null when it has none of them. */
export function experimentTables(run: PageRun): HTMLElement | null {
  const parts = [phasesTable(run), flowsTable(run), targetFacts(run)].filter((p) => p !== null);
  return parts.length ? h("div", { class: "experiment-tables" }, ...parts) : null;
}

/** Artillery's per-phase summary: one row per phase, exact from the interval histograms. */
export function phasesTable(run: PageRun): HTMLElement | null {
  if (!run.phases?.length) return null;
  const rows: Cell[][] = run.phases.map((p) => [
    { text: p.name, cls: "name" },
    { text: fmtNum(p.durationMs / 1000, 2), sort: p.durationMs },
    { text: fmtNum(p.requests), sort: p.requests },
    { text: fmtNum(p.rps), sort: p.rps },
    { text: fmtMs(p.latencyMs.mean), sort: p.latencyMs.mean ?? NaN },
    ...phaseOutcomeCells(p),
  ]);
  const headers = [
    { label: "phase" },
    ...numeric("s", "requests", "req/s", "mean", "p95", "p99", "success", "timeouts", "5xx"),
  ];
  const note =
    "Per phase of the load, from the interval histograms: an interval counts toward the phase it " +
    "starts in, so boundaries are exact to one interval.";
  const table = sortableTable(headers, rows, "phases");
  return h("div", { id: "phases" }, h("h3", null, "Phases"), h("p", { class: "note" }, note), table);
}

/** A check's pass rate, e.g. "99.5% pass". */
export function checkRate(passed: number, failed: number): string {
  const total = passed + failed;
  return total === 0 ? "no responses" : `${fixedOrDash((100 * passed) / total, 1)}% pass`;
}

/** Sessions per flow and latency per step, with each step's checks. */
export function flowsTable(run: PageRun): HTMLElement | null {
  if (!run.flows?.length) return null;
  const rows: Cell[][] = run.flows.flatMap((f) => [
    [
      { text: f.name, cls: "name" },
      { text: fmtNum(f.sessions), sort: f.sessions },
      { text: fmtNum(f.completed), sort: f.completed },
      { text: fmtNum(f.failed), sort: f.failed, cls: f.failed ? "bad" : "" },
      { text: fmtMs(f.sessionMs?.p50), sort: f.sessionMs?.p50 ?? NaN },
      { text: fmtMs(f.sessionMs?.p99), sort: f.sessionMs?.p99 ?? NaN },
    ],
    ...f.steps.flatMap((s): Cell[][] => [
      [
        { text: `  ↳ ${s.label}`, sort: f.name },
        { text: fmtNum(s.requests), sort: s.requests, title: "requests" },
        { text: "" },
        { text: fmtNum(s.errors), sort: s.errors, cls: s.errors ? "bad" : "", title: "errors" },
        { text: fmtMs(s.latencyMs?.p50), sort: s.latencyMs?.p50 ?? NaN },
        { text: fmtMs(s.latencyMs?.p99), sort: s.latencyMs?.p99 ?? NaN },
      ],
      ...(s.checks ?? []).map((c): Cell[] => [
        { text: `◦ check ${c.name}`, sort: f.name },
        { text: `${fmtNum(c.passed)} passed`, sort: c.passed, title: "responses that passed" },
        { text: checkRate(c.passed, c.failed) },
        {
          text: `${fmtNum(c.failed)} failed`,
          sort: c.failed,
          cls: c.failed ? "bad" : "",
          title: "check failures",
        },
        { text: "" },
        { text: "" },
      ]),
    ]),
  ]);
  const headers = [
    { label: "flow / step" },
    ...numeric("sessions / requests", "completed", "failed / errors", "p50", "p99"),
  ];
  return h("div", { id: "flows" }, h("h3", null, "Flows"), sortableTable(headers, rows, "flows"));
}

/** How the target ran (built-in, example app and its runtime, URL) and its counters over the run. */
export function targetFacts(run: PageRun): HTMLElement | null {
  const info = run.targetInfo, stats = run.targetStats;
  if (!info && !stats) return null;
  const box = h("div", { id: "target-info" }, h("h3", null, "Target"));
  if (run.cacheBypass) box.appendChild(h("p", { class: "warn", id: "cache-bypass" }, run.cacheBypass));
  if (info) {
    box.appendChild(
      facts([["kind", info.kind], ["runtime", info.runtime || null], ["command", info.command || null]]),
    );
  }
  if (stats && Object.keys(stats).length) {
    const measured = run.targetStatsMeasured;
    const rows: Cell[][] = Object.entries(stats).map(([k, n]) => [
      { text: k },
      ...(measured ? [{ text: fmtNum(measured[k]), sort: measured[k] ?? NaN }] : []),
      { text: fmtNum(n), sort: n },
    ]);
    const note = measured
      ? "Counters of the target (its own telemetry): after the warm-up, the requests the latency " +
        "statistics cover, and over the whole run with the warm-up's requests."
      : "Counters of the target over the run (its own telemetry).";
    box.appendChild(h("p", { class: "note" }, note));
    const counts = measured ? numeric("after warm-up", "whole run (with warm-up)") : numeric("count");
    const headers = [{ label: "counter" }, ...counts];
    box.appendChild(sortableTable(headers, rows, "target-stats"));
  }
  return box;
}

/** The bar charts of docs/studies/cache-burst.md: mean, p99 and success per phase, one bar per variant. */
export function renderPhaseCharts(data: PageData): HTMLElement | null {
  const comparisons = data.phaseComparisons.filter((c) => c.labels.length > 0);
  if (!comparisons.length) return null;
  const sec = section("phase-charts", "Phases across variants", "Means over repeats, per phase of the load.");
  for (const c of comparisons) {
    if (comparisons.length > 1 && c.load !== null) sec.appendChild(h("h3", null, c.load));
    const grid = h("div", { class: "grid3" });
    sec.appendChild(grid);
    const charts = [
      ["mean", "mean latency (ms)", "ms"],
      ["p99", "p99 latency (ms)", "ms"],
      ["success", "success (%)", "%"],
    ] as const;
    for (const [metric, title, unit] of charts) {
      const series = c.series.map((s) => ({ name: s.name, values: s[metric] }));
      metricBarChart(grid, `${c.load ? `${c.load}: ` : ""}${title}`, c.labels, series, unit);
    }
  }
  return sec;
}

/** Capacity searches: the value found under the SLO, the bracketing runs and every probe. */
export function renderSearches(data: PageData): HTMLElement | null {
  const searches = data.analysis?.searches ?? [];
  if (!searches.length) return null;
  const sec = section(
    "searches",
    "Capacity search",
    "Bisection over short probe runs: the low end first, then the high end, then halving the bracket until it " +
      "is within the precision; the value found is confirmed by one more run.",
  );
  for (const s of searches) {
    sec.appendChild(h("h3", null, `${s.target} / ${s.load}: ${s.parameter}`));
    sec.appendChild(facts([
      ["SLO", s.slo],
      ["value found", s.found],
      ["bracket", `${s.low ? s.low.run : "–"} … ${s.high ? s.high.run : "–"}`],
      ["confirming run", s.confirmRun ?? "–"],
    ]));
    const rows: Cell[][] = s.probes.map((p, i) => [
      { text: String(i + 1), sort: i },
      { text: fmtNum(p.value), sort: p.value },
      { text: p.ok ? "meets" : "fails", cls: p.ok ? "good" : "bad" },
      { text: p.run, cls: "name" },
    ]);
    sec.appendChild(
      sortableTable([...numeric("#", "value"), { label: "SLO" }, { label: "run" }], rows),
    );
  }
  return sec;
}

/** One phase of one run, with the coordinates the table groups by. */
interface PhaseRow {
  load: string;
  phase: string;
  variant: string;
  run: string;
  stats: NonNullable<PageRun["phases"]>[number];
}

/** Every phase of every run that has phases (probes left out), ordered load, phase, variant, run. */
export function phaseRows(runs: PageRun[]): PhaseRow[] {
  const phased = runs.filter((r) => !r.probe && r.phases?.length);
  const loads = [...new Set(phased.map((r) => r.load ?? r.name))];
  const variants = [...new Set(phased.map((r) => r.variant ?? r.name))];
  const rows: PhaseRow[] = [];
  for (const load of loads) {
    const ofLoad = phased.filter((r) => (r.load ?? r.name) === load);
    const phases = [...new Set(ofLoad.flatMap((r) => r.phases!.map((p) => p.name)))];
    for (const phase of phases) {
      for (const variant of variants) {
        for (const r of ofLoad.filter((r) => (r.variant ?? r.name) === variant)) {
          for (const p of r.phases!.filter((p) => p.name === phase)) {
            rows.push({ load, phase, variant, run: r.name, stats: p });
          }
        }
      }
    }
  }
  return rows;
}

/** Mean latency of `variant` in a load's phase, averaged over its repeats; NaN when it has none. */
export function phaseMeanMs(rows: PhaseRow[], load: string, phase: string, variant: string): number {
  const means = rows.filter((r) => r.load === load && r.phase === phase && r.variant === variant)
    .map((r) => r.stats.latencyMs.mean).filter(isNum);
  return meanOf(means) ?? NaN;
}

/** The table's cells for one row; `baseMs` is the baseline variant's mean in the same load and phase. */
export function phaseSummaryCells(row: PhaseRow, baseMs: number, isBase: boolean): Cell[] {
  const p = row.stats;
  const change = isNum(p.latencyMs.mean) && isNum(baseMs) && baseMs > 0 && !isBase
    ? (p.latencyMs.mean / baseMs - 1) * 100
    : NaN;
  return [
    { text: row.load, cls: "name" },
    { text: row.phase, cls: "name" },
    { text: row.variant, cls: "name", title: row.run },
    { text: fmtNum(p.requests), sort: p.requests },
    { text: fmtMs(p.latencyMs.mean), sort: p.latencyMs.mean ?? NaN },
    { text: fmtChange(change), sort: change },
    ...phaseOutcomeCells(p),
  ];
}

/** The section, or null when fewer than two runs have phases (one run's table is in its details). */
export function renderPhaseSummary(data: PageData): HTMLElement | null {
  const rows = phaseRows(data.runs);
  if (new Set(rows.map((r) => r.run)).size < 2) return null;
  const base = data.experiment.baseline ?? rows[0].variant;
  const cells = rows.map((r) =>
    phaseSummaryCells(r, phaseMeanMs(rows, r.load, r.phase, base), r.variant === base)
  );
  const headers = [
    { label: "load" },
    { label: "phase" },
    { label: "variant" },
    ...numeric("requests", "mean", `mean vs ${base}`, "p95", "p99", "success", "timeouts", "5xx"),
  ];
  const sec = section(
    "phase-summary",
    "Phases of every run",
    "Each load's phases with the variants side by side (every repeat its own row), from the interval " +
      "histograms. Success counts 2xx answers among all requests sent, timeouts included.",
  );
  sec.appendChild(sortableTable(headers, cells, "phase-summary"));
  return sec;
}

/** Counter names that are non-zero in at least one run, in the order runs first report them. */
export function counterNames(runs: PageRun[]): string[] {
  const counted = runs.flatMap((r) => Object.entries(r.targetStats ?? {}).filter(([, v]) => v !== 0));
  return [...new Set(counted.map(([name]) => name))];
}

/** A counter after the warm-up, with the whole run's count beside it when there was a warm-up. */
export function counterText(run: PageRun, name: string): Cell {
  const whole = run.targetStats ?? {}, measured = run.targetStatsMeasured;
  if (!(name in whole)) return { text: "–", sort: NaN };
  if (!measured || !(name in measured)) return { text: fmtNum(whole[name]), sort: whole[name] };
  return {
    text: `${fmtNum(measured[name])} (${fmtNum(whole[name])} with warm-up)`,
    sort: measured[name],
    title: "after the warm-up (as the latency statistics); in brackets the whole run, warm-up included",
  };
}

/** One run's row: name, variant, each counter (blank when the run's target has no such counter). */
export function counterCells(run: PageRun, names: string[], staleShare: boolean): Cell[] {
  const stats = run.targetStatsMeasured ?? run.targetStats ?? {};
  const cells: Cell[] = [{ text: run.name, cls: "name" }, { text: run.variant ?? "–", cls: "name" }];
  for (const k of names) cells.push(counterText(run, k));
  if (staleShare) {
    const share = (stats.staleHits ?? 0) / (stats.cacheHits ?? NaN) * 100;
    cells.push({ text: isNum(share) ? fmtPct(share, 1) : "–", sort: share, cls: share > 0 ? "bad" : "" });
  }
  return cells;
}

/** The section, or null when no run recorded a non-zero counter. */
export function renderTargetCounters(data: PageData): HTMLElement | null {
  const runs = data.runs.filter((r) => !r.probe && r.targetStats);
  const names = counterNames(runs);
  if (!names.length) return null;
  const staleShare = names.includes("staleHits") && names.includes("cacheHits");
  const headers = [
    { label: "run" },
    { label: "variant" },
    ...numeric(...names, ...(staleShare ? ["stale share of hits"] : [])),
  ];
  const sec = section(
    "target-counters",
    "Target counters",
    "What each target counted itself over each run. For a run with a warm-up: the count after the warm-up " +
      "(the same requests as the latency statistics), then in brackets the whole run with its warm-up " +
      "requests; otherwise the whole run. staleHits: cache hits that served an older version of a page than the current one, the " +
      "cost of a TTL longer than the content lives. A dash: that target has no such counter.",
  );
  sec.appendChild(
    sortableTable(headers, runs.map((r) => counterCells(r, names, staleShare)), "target-counters"),
  );
  return sec;
}
