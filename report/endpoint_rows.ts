/**
 * @module
 * A run's endpoints as rows for every printer (no response: NaN, sorted last). Pure.
 */
import type { EndpointResult, RunResult } from "../results/mod.ts";
import { sumValues } from "../results/interval_counts.ts";
import { failedStatusOf } from "../results/thresholds/selector.ts";
import { formatCount } from "../results/text_format.ts";

export type EndpointRow = ReturnType<typeof endpointRow>;

/** What qualifies every endpoint's numbers of the run, or "" (the run's own warm-up cut they do not have). */
export function endpointQualifier(run: RunResult): string {
  return (run.endpoints ?? []).some((e) => e.warmupIncluded)
    ? "they include the warm-up cut from the run's numbers (warmup: auto)"
    : "";
}

/** An endpoint's name, then its tags in key order (`GET /json {kind:html}`), so rows read apart. */
function endpointLabel(e: Pick<EndpointResult, "name" | "tags">): string {
  const keys = Object.keys(e.tags ?? {}).sort();
  return keys.length === 0 ? e.name : `${e.name} {${keys.map((k) => `${k}:${e.tags![k]}`).join(", ")}}`;
}

function endpointRow(run: RunResult, e: EndpointResult, seconds: number) {
  const errors = sumValues(e.errors);
  // Responses of a status its requests (or the run's script) do not expect.
  const non2xx = failedStatusOf({ config: run.config, statusCodes: e.statusCodes, endpoints: [e] });
  return {
    name: endpointLabel(e),
    requests: e.requests,
    rps: e.requests / seconds,
    errors,
    non2xx,
    /** Requests that ended with an error or a failed status. */
    failed: errors + non2xx,
    p50Ms: e.latencyMs?.p50 ?? Number.NaN,
    p90Ms: e.latencyMs?.p90 ?? Number.NaN,
    p95Ms: e.latencyMs?.p95 ?? Number.NaN,
    p99Ms: e.latencyMs?.p99 ?? Number.NaN,
    maxMs: e.latencyMs?.max ?? Number.NaN,
    // More than 1: the name was given to that many different requests, pooled.
    pooledRequests: e.pooledRequests ?? 1,
    endpoint: e,
  };
}

/** The run's endpoints, slowest p99 first; empty for a file without them. */
export function endpointRows(run: RunResult): EndpointRow[] {
  const seconds = run.durationSec > 0 ? run.durationSec : Number.NaN;
  const rows = (run.endpoints ?? []).map((e) => endpointRow(run, e, seconds));
  const key = (r: EndpointRow) => Number.isNaN(r.p99Ms) ? -Infinity : r.p99Ms;
  return rows.sort((a, b) => key(b) - key(a));
}

/** The most endpoints a printer shows of one run (the engine keeps 64 names and "other"). */
export const MAX_SHOWN_ENDPOINTS = 100;

/** The endpoints shown, slowest p99 first, and `omitted`, the line saying how many more and where. */
export function shownEndpointRows(run: RunResult): { rows: EndpointRow[]; omitted: string } {
  const rows = endpointRows(run);
  if (rows.length <= MAX_SHOWN_ENDPOINTS) return { rows, omitted: "" };
  const half = MAX_SHOWN_ENDPOINTS / 2;
  const byRequests = rows.slice(half).sort((a, b) => b.requests - a.requests);
  const kept = new Set(byRequests.slice(0, MAX_SHOWN_ENDPOINTS - half));
  const shown = rows.filter((r, i) => i < half || kept.has(r));
  const more = rows.length - shown.length;
  const omitted = `${formatCount(more)} more endpoint${more === 1 ? "" : "s"} not shown (of ` +
    `${formatCount(rows.length)}; shown: the ${half} slowest p99, then the ${half} busiest of the rest); ` +
    "results.json lists every one (runs[].endpoints)";
  return { rows: shown, omitted };
}
