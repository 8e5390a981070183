/**
 * @module
 * The one merge path of per-endpoint numbers: a worker's interval sample (runner/stats/run_totals.ts) and a
 * shard's whole endpoint (results/merge/shard_runs.ts) are both a part added to an endpoint's totals by
 * `addEndpointPart`: counts summed, the encoded HDR histogram decoded and added (exact, never an average of
 * percentiles), interval counts added at their interval index. `endpointResult` summarises totals once;
 * `mergeEndpoints` adds the endpoints of several runs by name. Pure.
 */
import type { EndpointResult, ErrorKind } from "./mod.ts";
import { addCounts, sumValues } from "./interval_counts.ts";
import { addEncoded, createHistogram, encodeHistogram, type Histogram, summarizeMs } from "./histogram.ts";

/** An endpoint's totals while parts are added. */
export interface EndpointTotals {
  name: string;
  method?: string;
  tags?: Record<string, string>;
  pooledRequests?: number;
  requests: number;
  errors: Partial<Record<ErrorKind, number>>;
  statusCodes: Record<string, number>;
  bytesRead: number;
  bytesWritten: number;
  histogram: Histogram;
  intervalRequests: number[];
  intervalErrors: number[];
}

/** What one part adds: counts, a histogram encoding (null: no response) and interval counts. */
export interface EndpointPart {
  requests: number;
  errors: Partial<Record<string, number>>;
  statusCodes: Record<string, number>;
  bytesRead: number;
  bytesWritten: number;
  histogram: string | null;
}

/** Empty totals of one endpoint (name, method, tags as the endpoint table or a results file has them). */
export function emptyEndpointTotals(
  info: Pick<EndpointTotals, "name" | "method" | "tags" | "pooledRequests">,
): EndpointTotals {
  return {
    name: info.name,
    ...(info.method !== undefined ? { method: info.method } : {}),
    ...(info.tags !== undefined && Object.keys(info.tags).length > 0 ? { tags: { ...info.tags } } : {}),
    ...((info.pooledRequests ?? 1) > 1 ? { pooledRequests: info.pooledRequests } : {}),
    requests: 0,
    errors: {},
    statusCodes: {},
    bytesRead: 0,
    bytesWritten: 0,
    histogram: createHistogram(),
    intervalRequests: [],
    intervalErrors: [],
  };
}

/**
 * Adds one part into `into`: its counts, its histogram, and its interval counts `requests[k]` and
 * `errors[k]` at interval `firstInterval + k` (a worker's sample: one interval; a shard: its series).
 */
export function addEndpointPart(
  into: EndpointTotals,
  part: EndpointPart,
  firstInterval: number,
  requests: readonly number[],
  errors: readonly number[],
): void {
  into.requests += part.requests;
  addCounts(into.errors, part.errors);
  addCounts(into.statusCodes, part.statusCodes);
  into.bytesRead += part.bytesRead;
  into.bytesWritten += part.bytesWritten;
  if (part.histogram !== null) addEncoded(into.histogram, part.histogram);
  addAt(into.intervalRequests, firstInterval, requests);
  addAt(into.intervalErrors, firstInterval, errors);
}

function addAt(into: number[], first: number, values: readonly number[]): void {
  for (let k = 0; k < values.length; k++) {
    while (into.length <= first + k) into.push(0);
    into[first + k] += values[k];
  }
}

/** Errors of a part, all kinds together. */
export function partErrors(part: Pick<EndpointPart, "errors">): number {
  return sumValues(part.errors);
}

/**
 * The endpoint's result; its interval counts cut to the run's `intervals` intervals, those past it added
 * into the last (as the run folds the responses of the graceful stop into its last interval).
 */
export function endpointResult(t: EndpointTotals, intervals: number): EndpointResult {
  const h = t.histogram;
  return {
    name: t.name,
    ...(t.method !== undefined ? { method: t.method } : {}),
    ...(t.tags !== undefined ? { tags: t.tags } : {}),
    ...(t.pooledRequests !== undefined ? { pooledRequests: t.pooledRequests } : {}),
    requests: t.requests,
    errors: t.errors as Record<string, number>,
    statusCodes: t.statusCodes,
    bytesRead: t.bytesRead,
    bytesWritten: t.bytesWritten,
    latencyMs: h.totalCount === 0 ? null : summarizeMs(h),
    histogramEncoded: h.totalCount === 0 ? null : encodeHistogram(h),
    intervals: {
      requests: fitted(t.intervalRequests, intervals),
      errors: fitted(t.intervalErrors, intervals),
    },
  };
}

function fitted(values: readonly number[], length: number): number[] {
  const out = Array.from({ length }, (_, k) => values[k] ?? 0);
  for (let k = length; k < values.length; k++) if (length > 0) out[length - 1] += values[k];
  return out;
}

/**
 * The endpoints of several runs of one load (shards) added by name and tags, in first-seen order;
 * `offsets[r]` is where run r's interval 0 lands, `intervals` the merged run's interval count. Undefined when
 * no run has endpoints (files of an older loadlab).
 */
export function mergeEndpoints(
  runs: ReadonlyArray<readonly EndpointResult[] | undefined>,
  offsets: readonly number[],
  intervals: number,
): EndpointResult[] | undefined {
  if (runs.every((r) => r === undefined)) return undefined;
  const byName = new Map<string, EndpointTotals>();
  runs.forEach((endpoints, r) => {
    for (const e of endpoints ?? []) {
      // One name with other tags is another endpoint (a k6 request of each scenario): kept apart.
      const key = e.tags === undefined
        ? e.name
        : `${e.name}\u0000${JSON.stringify(Object.entries(e.tags).sort())}`;
      let t = byName.get(key);
      if (t === undefined) byName.set(key, t = emptyEndpointTotals(e));
      const part = { ...e, histogram: e.histogramEncoded };
      addEndpointPart(t, part, offsets[r], e.intervals.requests, e.intervals.errors);
    }
  });
  return [...byName.values()].map((t) => endpointResult(t, intervals));
}
