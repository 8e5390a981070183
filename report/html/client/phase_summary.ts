/// <reference lib="dom" />
/**
 * @module
 * Every run's phases in one table by load, phase and variant, with the mean's change against the baseline.
 */
import type { PageData } from "../page/data.ts";
import type { PageRun } from "../page/run.ts";
import { type Cell, fmtChange, fmtMs, fmtNum, isNum, numeric, section, sortableTable } from "./dom.ts";
import { phaseOutcomeCells } from "./experiment.ts";
import { meanOf } from "../../../results/stats.ts";

/** One phase of one run, with the coordinates the table groups by. */
export interface PhaseRow {
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
