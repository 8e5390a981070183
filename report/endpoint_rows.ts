/**
 * @module
 * A run's endpoints as rows for every printer (terminal, page, markdown, JUnit): the slowest p99 first,
 * each with its requests, rate over the run's measured duration, failures (error kinds and 4xx/5xx
 * statuses) and latency figures. An endpoint without a response has no latency (NaN, shown as a dash),
 * sorted last. Pure.
 */
import type { EndpointResult, RunResult } from "../results/mod.ts";
import { sumValues } from "../results/interval_counts.ts";

/** One endpoint's figures as printed. */
export interface EndpointRow {
  name: string;
  requests: number;
  rps: number;
  errors: number;
  /** Responses with a status below 200 or from 400 on. */
  non2xx: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  /** More than 1: the name was given to that many different requests, pooled. */
  pooledRequests: number;
  endpoint: EndpointResult;
}

function non2xxOf(e: EndpointResult): number {
  return Object.entries(e.statusCodes).reduce((a, [c, n]) => {
    const code = Number(c);
    return code < 200 || code >= 400 ? a + n : a;
  }, 0);
}

/** What qualifies every endpoint's numbers of the run, or "" (the run's own warm-up cut they do not have). */
export function endpointQualifier(run: RunResult): string {
  return (run.endpoints ?? []).some((e) => e.warmupIncluded)
    ? "they include the warm-up cut from the run's numbers (warmup: auto)"
    : "";
}

/**
 * How an endpoint is printed: its name, then its user tags in key order as a threshold selects them
 * (`GET /json {kind:html}`). A script's requests of one name and different tags are endpoints of their
 * own (runner/endpoint_limits.ts), so without the tags two rows, two JUnit properties, read the same.
 */
export function endpointLabel(e: Pick<EndpointResult, "name" | "tags">): string {
  const keys = Object.keys(e.tags ?? {}).sort();
  return keys.length === 0 ? e.name : `${e.name} {${keys.map((k) => `${k}:${e.tags![k]}`).join(", ")}}`;
}

/** The run's endpoints, slowest p99 first; empty for a file without them. */
export function endpointRows(run: RunResult): EndpointRow[] {
  const seconds = run.durationSec > 0 ? run.durationSec : Number.NaN;
  const rows = (run.endpoints ?? []).map((e): EndpointRow => ({
    name: endpointLabel(e),
    requests: e.requests,
    rps: e.requests / seconds,
    errors: sumValues(e.errors),
    non2xx: non2xxOf(e),
    p50Ms: e.latencyMs?.p50 ?? Number.NaN,
    p90Ms: e.latencyMs?.p90 ?? Number.NaN,
    p99Ms: e.latencyMs?.p99 ?? Number.NaN,
    maxMs: e.latencyMs?.max ?? Number.NaN,
    pooledRequests: e.pooledRequests ?? 1,
    endpoint: e,
  }));
  const key = (r: EndpointRow) => Number.isNaN(r.p99Ms) ? -Infinity : r.p99Ms;
  return rows.sort((a, b) => key(b) - key(a));
}
