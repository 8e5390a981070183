/**
 * @module
 * A run's endpoints on the page: a table by p99 and their percentile curves.
 */
import type { PageRun } from "../page/run.ts";
import type { PageEndpoint } from "../page/run.ts";
import { type Cell, fmtMs, fmtNum, h, numeric, sortableTable } from "./dom.ts";
import { percentileChart } from "./charts.ts";

/** The endpoints' table and chart; null for a run of one endpoint. */
export function endpointSection(run: PageRun): HTMLElement | null {
  const endpoints = run.endpoints ?? [];
  if (endpoints.length < 2) return null;
  const note = "Slowest p99 first; latency from the intended send, as the run's" +
    (run.endpointNote ? `; ${run.endpointNote}.` : ".");
  const el = h(
    "div",
    { class: "endpoints", id: "run-endpoints" },
    h("h3", null, "Endpoints"),
    h("p", { class: "note" }, note),
    endpointTable(endpoints),
    run.endpointsOmitted ? h("p", { class: "note" }, run.endpointsOmitted) : null,
  );
  const grid = h("div", { class: "grid2" });
  el.appendChild(grid);
  percentileChart(
    grid,
    "latency by percentile per endpoint (ms)",
    endpoints.map((e) => ({ label: e.name, points: e.percentiles })),
  );
  return el;
}

/** One row per endpoint, in the run's order (slowest p99 first), every column sortable. */
export function endpointTable(endpoints: PageEndpoint[]): HTMLElement {
  const rows: Cell[][] = endpoints.map((e) => [
    { text: e.pooledRequests > 1 ? `${e.name} (${e.pooledRequests} requests pooled)` : e.name },
    { text: fmtNum(e.requests), sort: e.requests },
    { text: fmtNum(e.rps), sort: e.rps },
    { text: fmtNum(e.failed), sort: e.failed, cls: e.failed > 0 ? "bad" : "" },
    { text: fmtMs(e.p50Ms), sort: e.p50Ms ?? -1 },
    { text: fmtMs(e.p90Ms), sort: e.p90Ms ?? -1 },
    { text: fmtMs(e.p99Ms), sort: e.p99Ms ?? -1 },
    { text: fmtMs(e.maxMs), sort: e.maxMs ?? -1 },
  ]);
  return sortableTable(
    [{ label: "endpoint" }, ...numeric("requests", "req/s", "failed", "p50", "p90", "p99", "max")],
    rows,
  );
}
