/**
 * @module
 * The requests a k6 script's `setup()` and `teardown()` sent outside the load, added to its run as k6
 * counts them: in `http_reqs`, by endpoint (name and tags), status or error kind, and latency. Pure.
 */
import type { EndpointResult, ErrorKind, RunResult } from "./mod.ts";
import { clampUs, createHistogram, decodeHistogram, encodeHistogram, summarizeMs } from "./histogram.ts";
import { successRateOf, sumValues } from "./interval_counts.ts";
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

/** `run` with `sent` counted in: its totals and latency, and each one's endpoint (added when new). */
export function withHookRequests(run: RunResult, sent: readonly HookRequest[]): RunResult {
  if (sent.length === 0) return run;
  const out: RunResult = { ...run, statusCodes: { ...run.statusCodes }, errors: { ...run.errors } };
  const endpoints = (out.endpoints ?? []).map((e) => ({
    ...e,
    statusCodes: { ...e.statusCodes },
    errors: { ...e.errors },
  }));
  const total = run.histogramEncoded ? decodeHistogram(run.histogramEncoded) : createHistogram();
  const kept = new Map<EndpointResult, ReturnType<typeof createHistogram>>();
  for (const r of sent) {
    const tags = r.tags === undefined || Object.keys(r.tags).length === 0 ? undefined : { ...r.tags };
    let e = endpoints.find((x) => x.name === r.name && JSON.stringify(x.tags) === JSON.stringify(tags));
    if (e === undefined) {
      const none = run.intervals.map(() => 0);
      endpoints.push(
        e = {
          name: r.name,
          method: r.method,
          ...(tags ? { tags } : {}),
          requests: 0,
          errors: {},
          statusCodes: {},
          bytesRead: 0,
          bytesWritten: 0,
          latencyMs: null,
          histogramEncoded: null,
          intervals: { requests: none, errors: [...none] },
        },
      );
    }
    if (r.failure !== undefined) {
      out.errors[r.failure] = (out.errors[r.failure] ?? 0) + 1;
      e.errors[r.failure] = (e.errors[r.failure] ?? 0) + 1;
      continue;
    }
    out.requests++, e.requests++;
    out.statusCodes[r.status] = (out.statusCodes[r.status] ?? 0) + 1;
    e.statusCodes[r.status] = (e.statusCodes[r.status] ?? 0) + 1;
    let h = kept.get(e);
    if (h === undefined) {
      kept.set(e, h = e.histogramEncoded ? decodeHistogram(e.histogramEncoded) : createHistogram());
    }
    h.recordValue(clampUs(r.latencyUs));
    total.recordValue(clampUs(r.latencyUs));
  }
  for (const [e, h] of kept) {
    Object.assign(e, { histogramEncoded: encodeHistogram(h), latencyMs: summarizeMs(h) });
  }
  if (total.totalCount > 0) {
    Object.assign(out, { histogramEncoded: encodeHistogram(total), latencyMs: summarizeMs(total) });
  }
  const failedStatus = failedStatusOf(out);
  return {
    ...out,
    endpoints,
    successRate: successRateOf({ requests: out.requests, errors: sumValues(out.errors), failedStatus }, 0),
  };
}
