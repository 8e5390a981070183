/// <reference lib="dom" />
/**
 * @module
 * The target's own counters of every run in one table (cache, proxy, CMS pool); all-zero counters are left
 * out.
 */
import type { PageData } from "../page/data.ts";
import type { PageRun } from "../page/run.ts";
import { type Cell, fmtNum, fmtPct, isNum, numeric, section, sortableTable } from "./dom.ts";

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
