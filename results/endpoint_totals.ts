/**
 * @module
 * The one merge of per-endpoint numbers (worker samples, shards): counts, histograms, intervals added. Pure.
 */
import { defined } from "../validation/defined.ts";
import type { EndpointResult, ErrorKind } from "./mod.ts";
import { addCounts } from "./interval_counts.ts";
import { addEncoded, createHistogram, encodeHistogram, mergeEncoded, summarizeMs } from "./histogram.ts";

/** An endpoint's totals while parts are added. */
export type EndpointTotals = ReturnType<typeof emptyEndpointTotals>;

/** What one part adds: counts, errors by kind and a histogram encoding (null: no response). */
type EndpointPart = Pick<EndpointResult, "requests" | "statusCodes" | "bytesRead" | "bytesWritten"> & {
  errors: Partial<Record<string, number>>;
  histogram: string | null;
};

/** Empty totals of one endpoint (name, method, tags as the endpoint table or a results file has them). */
export function emptyEndpointTotals(
  info: Pick<EndpointResult, "name" | "method" | "tags" | "pooledRequests" | "expectedStatuses">,
) {
  return {
    name: info.name,
    ...defined({ method: info.method, expectedStatuses: info.expectedStatuses }),
    ...(info.tags !== undefined && Object.keys(info.tags).length > 0 ? { tags: { ...info.tags } } : {}),
    ...((info.pooledRequests ?? 1) > 1 ? { pooledRequests: info.pooledRequests } : {}),
    requests: 0,
    errors: {} as Partial<Record<ErrorKind, number>>,
    statusCodes: {} as Record<string, number>,
    bytesRead: 0,
    bytesWritten: 0,
    histogram: createHistogram(),
    intervalRequests: [] as number[],
    intervalErrors: [] as number[],
    /** Each interval's histogram encodings (one a worker's sample), when the run keeps them per endpoint. */
    intervalEncodings: null as string[][] | null,
  };
}

/** Adds one part into `into`: counts, histogram, and interval counts from interval `firstInterval`. */
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
  if (into.intervalEncodings !== null && part.histogram !== null) {
    (into.intervalEncodings[firstInterval] ??= []).push(part.histogram);
  }
}

const sum = (a: number, b: number) => a + b;

function addAt(into: number[], first: number, values: readonly number[]): void {
  for (let k = 0; k < values.length; k++) {
    while (into.length <= first + k) into.push(0);
    into[first + k] += values[k];
  }
}

/** The endpoint's result; intervals past the run's `intervals` are added into its last. */
export function endpointResult(t: EndpointTotals, intervals: number): EndpointResult {
  const h = t.histogram;
  return {
    name: t.name,
    ...defined({ method: t.method, tags: t.tags, pooledRequests: t.pooledRequests }),
    ...defined({ expectedStatuses: t.expectedStatuses }),
    requests: t.requests,
    errors: t.errors as Record<string, number>,
    statusCodes: t.statusCodes,
    bytesRead: t.bytesRead,
    bytesWritten: t.bytesWritten,
    latencyMs: h.totalCount === 0 ? null : summarizeMs(h),
    histogramEncoded: h.totalCount === 0 ? null : encodeHistogram(h),
    intervals: {
      requests: fitted(t.intervalRequests, intervals, () => 0, sum),
      errors: fitted(t.intervalErrors, intervals, () => 0, sum),
      ...(t.intervalEncodings === null ? {} : {
        histograms: fitted(t.intervalEncodings, intervals, () => [], (a, b) => [...a, ...(b ?? [])])
          .map((p) => p.length === 0 ? null : encodeHistogram(mergeEncoded(p))),
      }),
    },
  };
}

/** `values` as `length` intervals, those past `length` added (`add`) into the last. */
function fitted<T>(values: readonly T[], length: number, empty: () => T, add: (a: T, b: T) => T): T[] {
  const out = Array.from({ length }, (_, k) => values[k] ?? empty());
  for (let k = length; k < values.length; k++) {
    if (length > 0) out[length - 1] = add(out[length - 1], values[k]);
  }
  return out;
}

/** The endpoints of several runs of one load added by name, method and tags; undefined when none has any. */
export function mergeEndpoints(
  runs: ReadonlyArray<readonly EndpointResult[] | undefined>,
  offsets: readonly number[],
  intervals: number,
): EndpointResult[] | undefined {
  if (runs.every((r) => r === undefined)) return undefined;
  const byName = new Map<string, EndpointTotals>();
  runs.forEach((endpoints, r) => {
    for (const e of endpoints ?? []) {
      const key = JSON.stringify([e.name, e.method, Object.entries(e.tags ?? {}).sort(), e.expectedStatuses]);
      let t = byName.get(key);
      if (t === undefined) byName.set(key, t = emptyEndpointTotals(e));
      const part = { ...e, histogram: e.histogramEncoded };
      addEndpointPart(t, part, offsets[r], e.intervals.requests, e.intervals.errors);
    }
  });
  return [...byName.values()].map((t) => endpointResult(t, intervals));
}
