/**
 * @module
 * The requests a k6 script's `setup()` and `teardown()` sent outside the load, added as k6 counts them. Pure.
 */
import type { ErrorKind, FlowResult, RunResult } from "./mod.ts";
import type { ExpectedStatuses } from "./schema/keys.ts";
import {
  emptyEndpointTotals,
  endpointResult,
  type EndpointTotals,
  mergeEndpoints,
} from "./endpoint_totals.ts";
import { clampUs, createHistogram, decodeHistogram, encodeHistogram, summarizeMs } from "./histogram.ts";
import { addCounts, sumValues } from "./interval_counts.ts";
import { failedStatusOf, judgedSuccessRate, unjudgedUnansweredOf } from "./thresholds/selector.ts";
import type { LiveInterval } from "./thresholds/abort.ts";

/** One request sent outside the load: its endpoint, status (0: none, `failure` its error kind), latency. */
interface HookRequest {
  name: string;
  method: string;
  tags?: Readonly<Record<string, string>>;
  status: number;
  failure?: ErrorKind;
  latencyUs: number;
  /** Its own `responseCallback`'s statuses, when it has one. */
  expectedStatuses?: ExpectedStatuses;
}

/** A request, or a check by k6's path (`::teardown::name`), of setup() or teardown(). */
export type HookRecord = HookRequest | { check: string; ok: boolean };
type HookCheck = Extract<HookRecord, { check: string }>;

/** `run` with `sent` counted in: its totals and latency, by endpoint (name and tags), and its checks. */
export function withHookRequests(run: RunResult, sent: readonly HookRecord[]): RunResult {
  if (sent.length === 0) return run;
  const out = { ...run, statusCodes: { ...run.statusCodes }, errors: { ...run.errors } };
  const total = run.histogramEncoded ? decodeHistogram(run.histogramEncoded) : createHistogram();
  const hooks = new Map<string, EndpointTotals>();
  const checks = sent.filter((r) => "check" in r);
  if (checks.length > 0) out.flows = withHookChecks(run.flows, checks);
  for (const r of sent) {
    if ("check" in r) continue;
    const key = JSON.stringify([r.name, r.tags ?? {}, r.expectedStatuses]);
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
  return { ...out, successRate: judgedSuccessRate(out), unjudged: failedStatusOf(out, null) || undefined };
}

/** The hooks' requests as one interval the abort watch judges, before the load's first (index -1). */
export function hookInterval(sent: readonly HookRecord[], config: RunResult["config"]): LiveInterval {
  const none = { config, requests: 0, statusCodes: {}, errors: {}, endpoints: [], intervals: [] } as Partial<
    RunResult
  >;
  const run = withHookRequests(none as RunResult, sent), skipped = unjudgedUnansweredOf(run);
  return {
    index: -1,
    histograms: run.histogramEncoded ? [run.histogramEncoded] : [],
    requests: run.requests + skipped,
    errors: sumValues(run.errors) - skipped,
    failedStatus: failedStatusOf(run),
    unjudged: failedStatusOf(run, null) + skipped,
    lateSends: 0,
    droppedSends: 0,
  };
}

/** `flows` with the hooks' checks added to the first step's (a step of its own when no session ran). */
function withHookChecks(flows: FlowResult[] | undefined, checks: readonly HookCheck[]): FlowResult[] {
  const [first, ...rest] = flows ?? [];
  const flow = first ?? { name: "default", sessions: 0, completed: 0, failed: 0, sessionMs: null, steps: [] };
  const [step, ...steps] = flow.steps.length > 0
    ? flow.steps
    : [{ label: "setup", requests: 0, errors: 0, latencyMs: null }];
  const own = (step.checks ?? []).map((c) => ({ ...c }));
  for (const c of checks) {
    let had = own.find((o) => o.name === c.check);
    if (had === undefined) own.push(had = { name: c.check, passed: 0, failed: 0 });
    c.ok ? had.passed++ : had.failed++;
  }
  return [{ ...flow, steps: [{ ...step, checks: own }, ...steps] }, ...rest];
}
