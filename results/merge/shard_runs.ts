/**
 * @module
 * A run rebuilt from shards (`--segment i/N`) or loads run `together:`; what cannot add exactly is left out.
 */
import { defined } from "../../validation/defined.ts";
import type { IntervalResult, RunResult } from "../mod.ts";
import { addCounters, addCounts, emptyCounters, sumValues } from "../interval_counts.ts";
import { intervalTotals } from "../interval_stats.ts";
import { encodeHistogram, firstMessageBlock, latencyBlock, mergeEncoded, summarizeMs } from "../histogram.ts";
import {
  busierLoad,
  type GeneratorLoad,
  generatorSaturation,
  loadOf,
} from "../conclude/generator_saturation.ts";
import { saturated, servedRps, verdict } from "../conclude/served_rate.ts";
import { detectStabilization } from "../conclude/stabilization.ts";
import { mergeEndpoints } from "../endpoint_totals.ts";
import { addWsParts } from "../ws_totals.ts";

type Flow = NonNullable<RunResult["flows"]>[number];
type Step = Flow["steps"][number];

const sum = (runs: RunResult[], of: (r: RunResult) => number | undefined) =>
  runs.reduce((total, r) => total + (of(r) ?? 0), 0);

function successes(run: RunResult): number {
  const attempted = run.requests - (run.unjudged ?? 0) + sumValues(run.errors);
  return Number.isFinite(run.successRate) ? Math.round(run.successRate * attempted) : 0;
}

/** The whole run from its shards, one run per segment present, in any order. */
export function mergeShardRuns(runs: RunResult[]): RunResult {
  if (runs.length === 0) throw new RangeError("mergeShardRuns needs at least one shard");
  const alignment = alignShards(runs);
  const intervals = mergeIntervals(runs, alignment);
  const durationSec = Math.max(
    ...runs.map((r, k) => r.durationSec + (alignment.offsets[k] * alignment.intervalMs) / 1000),
  );
  const first = runs[0];
  // Each shard requested its share of the rate.
  const targetRps = runs.every((r) => r.targetRps !== null) ? sum(runs, (r) => r.targetRps!) : null;
  // hostTcp and hostCpu count one generator host: the shards' hosts differ, so a merged run keeps neither.
  const {
    segment: _segment,
    logFile: _log,
    phases: _phases,
    hostTcp: _host,
    hostCpu: _cpu,
    ws: _ws,
    ...whole
  } = first;
  const { segment: _s, startAtEpochMs: _t, logFile: _l, ...config } = first.config;
  return {
    ...whole,
    config,
    startedAt: runs.map((r) => r.startedAt).sort()[0],
    ...mergeTotals(runs, intervals, durationSec, targetRps),
    ...mergeGenerators(runs),
    intervals,
    stabilizedAtMs: detectStabilization(intervals, targetRps),
    ...mergeSections(runs, alignment, intervals.length),
  };
}

function addShardCounts(runs: RunResult[]) {
  // A run stores no failed-status count, and a file may lack server-bound sends: those add nothing.
  const counters = emptyCounters();
  const statusCodes: Record<string, number> = {};
  const errors: Record<string, number> = {};
  const errorMessages: Record<string, Record<string, number>> = {};
  for (const r of runs) {
    addCounters(counters, r);
    addCounts(statusCodes, r.statusCodes);
    addCounts(errors, r.errors);
    for (const [kind, messages] of Object.entries(r.errorMessages)) {
      addCounts(errorMessages[kind] ??= {}, messages);
    }
  }
  return { counters, statusCodes, errors, errorMessages };
}

function mergeTotals(
  runs: RunResult[],
  intervals: IntervalResult[],
  durationSec: number,
  targetRps: number | null,
) {
  const { counters: c, statusCodes, errors, errorMessages } = addShardCounts(runs);
  // A run keeps no failed-status count; `summed` adds the often-zero counts when they are not zero.
  const { failedStatus: _f, unjudged: _u, unrecordedLatencies: _r, ...counted } = c;
  const { requests, lateSends, droppedSends } = c;
  const errorCount = sumValues(errors), judged = requests - c.unjudged + errorCount;
  const first = runs[0];
  const total = mergeEncoded(runs.flatMap((r) => (r.histogramEncoded ? [r.histogramEncoded] : [])));
  const rps = servedRps(requests, c.drained, durationSec);
  const full = saturated({ rps, targetRps, durationSec, intervals });
  const sent = requests + errorCount + droppedSends + c.unfinished;
  return {
    targetRps,
    durationSec,
    ...counted,
    rps,
    successRate: judged > 0 ? sum(runs, successes) / judged : 0,
    ...latencyBlock(total),
    // Only the summaries of the uncorrected latency are stored: they cannot be added exactly.
    uncorrectedLatencyMs: runs.length === 1 ? first.uncorrectedLatencyMs : null,
    uncorrectedPercentiles: runs.length === 1 ? first.uncorrectedPercentiles : null,
    uncorrectedHistogramEncoded: runs.length === 1 ? first.uncorrectedHistogramEncoded : undefined,
    ...firstMessageBlock(mergeEncoded(runs.flatMap((r) => r.firstMessage?.histogramEncoded ?? []))),
    statusCodes,
    errors,
    errorMessages,
    ...verdict(lateSends, c.serverBoundSends, sent, full, generatorSaturation(intervals)?.bound),
  };
}

function mergeGenerators(runs: RunResult[]) {
  const first = runs[0];
  return {
    connectTimeMs: mergeConnectTimes(runs, (r) => r.connectTimeMs),
    ...(runs.some((r) => r.tlsMs) ? { tlsMs: mergeConnectTimes(runs, (r) => r.tlsMs ?? null) } : {}),
    ...(first.tls ? { tls: first.tls } : {}),
    preConnected: sum(runs, (r) => r.preConnected),
    maxConnectsInFlight: sum(runs, (r) => r.maxConnectsInFlight),
    generatorWarmupMs: Math.max(0, ...runs.map((r) => r.generatorWarmupMs ?? 0)),
    // The shards' transport when they agree (each machine chose its own).
    ...(first.transport !== undefined && runs.every((r) => r.transport === first.transport)
      ? { transport: first.transport }
      : {}),
    workers: sum(runs, (r) => r.workers),
    ...(runs.length === 1 && first.hostTcp !== undefined ? { hostTcp: first.hostTcp } : {}),
  };
}

/** Counts a run carries only when not zero: workers cut or out of rows, answers unjudged or unmeasured. */
type Counted = "stuckWorkers" | "exitedWorkers" | "unrecordedLatencies" | "dataRanOutWorkers" | "unjudged";
function summed(runs: RunResult[], ...keys: Counted[]) {
  const totals = keys.map((key) => [key, sum(runs, (r) => r[key])] as const);
  return Object.fromEntries(totals.filter(([, total]) => total > 0));
}

/** The parts a run does not always have: incomplete, cut workers, telemetry, flows, endpoints, ws. */
function mergeSections(runs: RunResult[], alignment: Alignment, intervalCount: number) {
  const endpoints = mergeEndpoints(runs.map((r) => r.endpoints), alignment.offsets, intervalCount);
  const ws = runs.flatMap((r) => (r.ws ? [r.ws] : []));
  const cut = runs.find((r) => r.memoryCut)?.memoryCut;
  return {
    ...(runs.some((r) => r.incomplete) ? { incomplete: true } : {}),
    ...summed(runs, "stuckWorkers", "exitedWorkers", "unrecordedLatencies", "dataRanOutWorkers", "unjudged"),
    ...(cut ? { memoryCut: { ...cut, workers: sum(runs, (r) => r.memoryCut?.workers ?? 0) } } : {}),
    ...(runs.some((r) => r.telemetry) ? { telemetry: mergeTelemetry(runs) } : {}),
    ...(runs[0].flows ? { flows: addFlows(runs.flatMap((r) => r.flows ?? [])) } : {}),
    ...defined({ endpoints }),
    ...(ws.length > 0 ? { ws: addWsParts(ws) } : {}),
  };
}

/** Connect and TLS times: min and max exact, mean weighted, p99 the largest shard's (an upper bound). */
function mergeConnectTimes(
  runs: RunResult[],
  times: (r: RunResult) => RunResult["connectTimeMs"],
): RunResult["connectTimeMs"] {
  const timed = runs.filter((r) => times(r) !== null && r.connects > 0);
  if (timed.length === 0) return null;
  const connects = sum(timed, (r) => r.connects);
  return {
    min: Math.min(...timed.map((r) => times(r)!.min)),
    mean: sum(timed, (r) => times(r)!.mean * r.connects) / connects,
    max: Math.max(...timed.map((r) => times(r)!.max)),
    p99: Math.max(...timed.map((r) => times(r)!.p99)),
  };
}

function mergeTelemetry(runs: RunResult[]): NonNullable<RunResult["telemetry"]> {
  return runs.flatMap((r) =>
    (r.telemetry ?? []).map((t) => ({ ...t, name: `${t.name} (segment ${r.segment?.index ?? "?"})` }))
  );
}

/** Flows added by name, steps by label and checks by name; session durations pooled by `poolSessions`. */
function addFlows(flows: Flow[]): Flow[] {
  const byName = new Map<string, Flow>();
  for (const flow of flows) {
    const into = byName.get(flow.name);
    if (into === undefined) {
      byName.set(flow.name, { ...flow, steps: flow.steps.map(copyStep) });
      continue;
    }
    poolSessions(into, flow);
    into.loads = { ...into.loads, ...flow.loads };
    into.sessions += flow.sessions;
    into.completed += flow.completed;
    into.failed += flow.failed;
    flow.steps.forEach((step, i) => addStep(into, step, i));
  }
  return [...byName.values()];
}

const copyStep = (step: Step): Step => ({ ...step, checks: step.checks?.map((c) => ({ ...c })) });

function addStep(flow: Flow, step: Step, index: number): void {
  const into = flow.steps[index]?.label === step.label
    ? flow.steps[index]
    : flow.steps.find((s) => s.label === step.label);
  if (into === undefined) {
    flow.steps.push(copyStep(step));
    return;
  }
  into.requests += step.requests;
  into.errors += step.errors;
  into.latencyMs = null;
  for (const check of step.checks ?? []) {
    const same = into.checks?.find((c) => c.name === check.name);
    if (same === undefined) (into.checks ??= []).push({ ...check });
    else {
      same.passed += check.passed, same.failed += check.failed;
      for (const [load, n] of Object.entries(check.loads ?? {})) {
        const seen = (same.loads ??= {})[load];
        same.loads[load] = { passed: (seen?.passed ?? 0) + n.passed, failed: (seen?.failed ?? 0) + n.failed };
      }
    }
  }
}

/** `flow`'s sessions' times added into `into`'s by histogram; without both none adds exactly, none kept. */
function poolSessions(into: Flow, flow: Flow): void {
  const [a, b] = [into.sessionHistogramEncoded, flow.sessionHistogramEncoded];
  if (typeof a === "string" && typeof b === "string") {
    const pooled = mergeEncoded([a, b]);
    into.sessionMs = summarizeMs(pooled);
    into.sessionHistogramEncoded = encodeHistogram(pooled);
    return;
  }
  into.sessionMs = null;
  delete into.sessionHistogramEncoded;
}

type Alignment = ReturnType<typeof alignShards>;

/** When a shard's measured run began (ms since the epoch): its schedule start plus its warm-up. */
function originEpochMs(run: RunResult): number {
  return Date.parse(run.segment?.startAt ?? run.startedAt) + run.warmupSec * 1000;
}

/** Each shard's offset on the merged interval grid; `unaligned` when one started over 1 ms off it. */
export function alignShards(runs: RunResult[]) {
  const configured = Number(runs[0].config.intervalMs);
  const intervalMs = configured > 0 ? configured : (runs[0].intervals[0]?.durationMs ?? 250);
  const origins = runs.map(originEpochMs);
  const base = Math.min(...origins);
  const offsets = origins.map((o) => Math.round((o - base) / intervalMs));
  const unaligned = origins.some((o, k) => Math.abs(o - base - offsets[k] * intervalMs) > 1);
  return { intervalMs, offsets, unaligned };
}

/** The shards' intervals added per absolute interval; percentiles from the added histograms. */
function mergeIntervals(runs: RunResult[], alignment: Alignment): IntervalResult[] {
  const placed = runs.flatMap((run, k) =>
    run.intervals.map((iv, i) => ({ iv, index: i + alignment.offsets[k] }))
  );
  const slots = Map.groupBy(placed, (p) => p.index);
  const last = Math.max(-1, ...slots.keys());
  return Array.from(
    { length: last + 1 },
    (_, index) => mergeInterval((slots.get(index) ?? []).map((p) => p.iv), index, alignment),
  );
}

function mergeInterval(parts: IntervalResult[], index: number, alignment: Alignment): IntervalResult {
  const counts = intervalTotals(parts), detail = counts.detail, histogram = counts.histogram();
  let inFlight = 0, connections = 0;
  let generator: GeneratorLoad | undefined;
  for (const iv of parts) {
    inFlight += iv.inFlight;
    connections += iv.connections;
    generator = busierLoad(generator, loadOf(iv));
  }
  const summary = histogram && summarizeMs(histogram);
  return {
    startMs: index * alignment.intervalMs,
    durationMs: parts.length ? Math.max(...parts.map((iv) => iv.durationMs)) : alignment.intervalMs,
    requests: counts.requests,
    ...(counts.drained > 0 ? { drained: counts.drained } : {}),
    errors: counts.errors,
    ...(detail.errorKinds !== null ? { errorKinds: detail.errorKinds } : {}),
    failedStatus: counts.failedStatus,
    ...(counts.unjudged > 0 ? { unjudged: counts.unjudged } : {}),
    p50: summary?.p50 ?? NaN,
    p75: summary?.p75 ?? NaN,
    p90: summary?.p90 ?? NaN,
    p99: summary?.p99 ?? NaN,
    mean: summary?.mean ?? NaN,
    max: summary?.max ?? NaN,
    bytesRead: counts.bytesRead,
    bytesWritten: counts.bytesWritten,
    lateSends: counts.lateSends,
    ...(detail.serverBoundSends !== null ? { serverBoundSends: detail.serverBoundSends } : {}),
    inFlight,
    ...generator,
    connections,
    statusCodes: counts.statusCodes,
    ...(histogram ? { histogramEncoded: encodeHistogram(histogram) } : {}),
  };
}

export function mergeParts(name: string, runs: RunResult[]): RunResult {
  if (runs.length === 1) return { ...runs[0], name };
  // Aligned by when each load's schedule started (its start instant), not by when its run was set up.
  const merged = mergeShardRuns(runs.map(scheduledStart));
  const abortedBy = runs.find((r) => r.abortedBy)?.abortedBy;
  const flows = addFlows(runs.flatMap((r) => (r.flows ?? []).map((f) => withLoad(f, r.name))));
  return {
    ...merged,
    name,
    config: { ...merged.config, ...summedLoads(runs) },
    ...(flows.length > 0 ? { flows } : {}),
    ...(abortedBy ? { abortedBy } : {}),
  };
}

/** `run` dated by its schedule's start (`config.startAtEpochMs`) when it has one. */
function scheduledStart(run: RunResult): RunResult {
  const at = Number(run.config.startAtEpochMs);
  return Number.isFinite(at) && at > 0 ? { ...run, startedAt: new Date(at).toISOString() } : run;
}

/** The loads' connections (virtual users), most and pre-connected, summed where every load names them. */
function summedLoads(runs: RunResult[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key of ["connections", "maxConnections", "preConnect"]) {
    const each = runs.map((r) => Number(r.config[key]));
    if (each.every((n) => Number.isFinite(n) && n > 0)) out[key] = each.reduce((a, n) => a + n, 0);
  }
  return out;
}

/** `flow` with its counts also kept under `load` (k6's scenario), so a threshold can pick one. */
function withLoad(flow: Flow, load: string): Flow {
  const steps = flow.steps.map((s) => ({
    ...s,
    checks: s.checks?.map((c) => ({ ...c, loads: { [load]: { passed: c.passed, failed: c.failed } } })),
  }));
  const own = {
    completed: flow.completed,
    ...(flow.sessionHistogramEncoded ? { sessionHistogramEncoded: flow.sessionHistogramEncoded } : {}),
  };
  return { ...flow, steps, loads: { ...flow.loads, [load]: own } };
}
