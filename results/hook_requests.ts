/**
 * @module
 * The requests a k6 script's `setup()` and `teardown()` sent outside the load, added to its run as k6
 * counts them: in `http_reqs`, by endpoint (name and tags), status or error kind, and latency. Pure.
 */
import type { ErrorKind, RunResult } from "./mod.ts";
import {
  emptyEndpointTotals,
  endpointResult,
  type EndpointTotals,
  mergeEndpoints,
} from "./endpoint_totals.ts";
import { clampUs, createHistogram, decodeHistogram, encodeHistogram, summarizeMs } from "./histogram.ts";
import { addCounts, successRateOf, sumValues } from "./interval_counts.ts";
import { failedStatusOf } from "./thresholds/selector.ts";

/** One request sent outside the load: its endpoint, status (0: none, `failure` its error kind), latency. */
export interface HookRequest {
  name: string;
  method: string;
  tags?: Readonly<Record<string, string>>;
  status: number;
  failure?: ErrorKind;
  latencyUs: number;
}

/** `run` with `sent` counted in: its totals and latency, and by endpoint (name and tags). */
export function withHookRequests(run: RunResult, sent: readonly HookRequest[]): RunResult {
  if (sent.length === 0) return run;
  const out = { ...run, statusCodes: { ...run.statusCodes }, errors: { ...run.errors } };
  const total = run.histogramEncoded ? decodeHistogram(run.histogramEncoded) : createHistogram();
  const hooks = new Map<string, EndpointTotals>();
  for (const r of sent) {
    const key = JSON.stringify([r.name, r.tags ?? {}]);
    let t = hooks.get(key);
    if (t === undefined) hooks.set(key, t = emptyEndpointTotals(r));
    const one = { [r.failure ?? r.status]: 1 };
    addCounts(r.failure === undefined ? out.statusCodes : out.errors, one);
    addCounts(r.failure === undefined ? t.statusCodes : t.errors, one);
    if (r.failure !== undefined) continue;
    out.requests++, t.requests++;
    t.histogram.recordValue(clampUs(r.latencyUs));
    total.recordValue(clampUs(r.latencyUs));
  }
  const added = [...hooks.values()].map((t) => endpointResult(t, 0));
  out.endpoints = mergeEndpoints([run.endpoints, added], [0, 0], run.intervals.length);
  if (total.totalCount > 0) {
    Object.assign(out, { histogramEncoded: encodeHistogram(total), latencyMs: summarizeMs(total) });
  }
  const failedStatus = failedStatusOf(out);
  return {
    ...out,
    successRate: successRateOf({ requests: out.requests, errors: sumValues(out.errors), failedStatus }, 0),
  };
}
