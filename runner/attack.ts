/**
 * @module
 * One run of one load model against one URL: spawns the workers, merges their interval samples into
 * one aggregator, reports live progress, hands each finished interval (stamped with its wall-clock end)
 * to the thresholds with `abortOnFail`, which may stop the load, and on for metrics outputs, and returns
 * a complete `RunResult`. This is the function the CLI's `attack`, the demo and experiments all call.
 */
import { type AttackConfig, measuredDurationMs } from "./config.ts";
import type { RequestSpec } from "./request_spec.ts";
import type { AttackProgress, RunResult } from "../results/mod.ts";
import { RunAggregator } from "./stats/aggregate.ts";
import type { AggregatorOptions } from "./stats/aggregate_types.ts";
import { FlowAggregator } from "./stats/flow_aggregate.ts";
import { endpointTable } from "./endpoint_table.ts";
import { runWorkers, type WorkersSummary } from "./worker/pool.ts";
import { createLogFile } from "./load/request_log.ts";
import { modelDef } from "./load/models/mod.ts";
import { hostTcpDelta } from "./stats/host_tcp.ts";
import { readHostTcp } from "../system/proc_net.ts";
import { type AbortedBy, type AbortRule, AbortWatch } from "../results/threshold_abort.ts";
import type { IntervalDelta } from "../results/export/interval_delta.ts";
import type { FlowSample } from "./stats/flow_counters.ts";
import { alignFlowSamples } from "./stats/flow_align.ts";
import { withScriptSetup } from "./script/script_hooks.ts";
import { type RunSteering, steeredArrivalsPerSec } from "./steering.ts";
import { wsStepWaits } from "./ws_step_spec.ts";
import type { SteerChange } from "../results/schema_steering.ts";

export interface AttackHooks {
  /** Name of the run in the results; default "attack". */
  name?: string;
  onProgress?(p: AttackProgress): void;
  progressEveryMs?: number;
  /** The schedule's start instant (ms since the epoch); the measured part begins `config.warmupMs` later. */
  onStart?(startAtEpochMs: number): void;
  /** Aborting stops the load gracefully; the partial result is still returned. */
  signal?: AbortSignal;
  /**
   * Thresholds with `abortOnFail`, judged on each interval as it completes: the first to fail stops the
   * load gracefully, as `signal` does, and the result says which and when (`abortedBy`, `incomplete`).
   */
  abortOn?: AbortRule[];
  /**
   * Each interval once every worker reported it (and samples that came later, `late`), stamped with the
   * interval's end on the wall clock: for a metrics exporter. Called on the samples' path: queue only.
   */
  onInterval?(delta: IntervalDelta): void;
  /** Live steering of this run (the dashboard's controls, `loadlab steer`); absent: it runs as planned. */
  steering?: RunSteering;
}

/**
 * The request log (`--log`) could not be written in full; `run` is the measured result all the same,
 * so the caller can still save it. The message starts `request log: ` and ends with the OS error.
 */
export class RequestLogFailed extends Error {
  override name = "RequestLogFailed";
  constructor(message: string, readonly run: RunResult) {
    super(message);
  }
}

/** Runs the attack described by a validated config; throws `RequestLogFailed` (with the result) when the log failed. */
export async function runAttack(config: AttackConfig, hooks: AttackHooks = {}): Promise<RunResult> {
  if (config.logFile) await createLogFile(config.logFile);
  // A session script's setup() runs once before the load; its teardown() once after, whatever happened.
  return await withScriptSetup(config, (ready) => runLoaded(ready, hooks));
}

async function runLoaded(config: AttackConfig, hooks: AttackHooks): Promise<RunResult> {
  const uncorrected = modelDef(config.model).keepsUncorrected;
  // A segment's share of the requested rate (the shards' add up to the configured one).
  let requestedRps = shareOfRate(targetRps(config), config.segment?.count ?? 1);
  const aggregatorOptions: AggregatorOptions = {
    intervalMs: config.intervalMs,
    requestedRps,
    uncorrected,
    intervalHistograms: config.intervalHistograms,
    workers: config.workers,
    // Responses of the graceful stop fold into the last measured interval; a second covers the drain.
    foldWindowMs: config.gracefulStopMs + 1_000,
    // The same table every worker builds: sample endpoint k is endpoint k here. A script's endpoints are
    // named as its requests are sent, and its workers' samples carry the names.
    endpoints: config.script ? [] : endpointTable(config).endpoints,
    namedEndpoints: config.script !== undefined,
  };
  // A rule scoped to another run by name (`other:p99<1s`) is not this run's, as after the run.
  const name = hooks.name ?? "attack";
  const rules = (hooks.abortOn ?? []).filter((r) =>
    r.threshold.run === undefined || r.threshold.run === name
  );
  const abort = abortOnFail(rules, config.intervalMs, measuredDurationMs(config));
  // The measured run's start on the wall clock, known once the workers are told when to start.
  let originEpochMs = 0;
  const onInterval = hooks.onInterval;
  if (abort.onInterval || onInterval) {
    aggregatorOptions.onInterval = (delta: IntervalDelta) => {
      // Its nominal end; the exporter stamps a last, partial interval no later than it is handed on.
      delta.endEpochMs = originEpochMs + (delta.index + 1) * config.intervalMs;
      abort.onInterval?.(delta);
      onInterval?.(delta);
    };
  }
  const aggregator = new RunAggregator(aggregatorOptions);
  const flowAggregator = new FlowAggregator();
  // Each worker's flow totals; a script's steps are lined up by name once all are in.
  const flowSamples: FlowSample[][] = [];
  const startedAt = new Date().toISOString();
  const startMs = performance.now();
  const plannedMs = measuredDurationMs(config);
  const totalSec = Number.isFinite(plannedMs) ? (plannedMs + config.warmupMs) / 1000 : null;
  const timer = hooks.onProgress
    ? setInterval(() => {
      const live = aggregator.live();
      hooks.onProgress!({ elapsedSec: (performance.now() - startMs) / 1000, totalSec, ...live });
    }, hooks.progressEveryMs ?? 250)
    : undefined;
  const tcpBefore = readHostTcp();
  // A replayed schedule is the run's steering; live changes are taken only when none is replayed.
  const steering = config.steering ? undefined : hooks.steering;
  steering?.begin(name, config);
  let steered: SteerChange[] = (config.steering ?? []).map((c) => ({ ...c, by: "replay" }));
  let workers: WorkersSummary;
  try {
    workers = await runWorkers(config, {
      onSamples: (samples, workerIndex) => samples.forEach((s) => aggregator.add(s, workerIndex)),
      onFlows: (flows) => flowSamples.push(flows),
      onStart: (startAtEpochMs) => {
        originEpochMs = startAtEpochMs + config.warmupMs;
        hooks.onStart?.(startAtEpochMs);
      },
      onSteerable: (send) => steering?.started(originEpochMs, send),
      signal: hooks.signal ? AbortSignal.any([hooks.signal, abort.signal]) : abort.signal,
    });
  } finally {
    clearInterval(timer);
    abort.done();
    if (steering) steered = steering.end();
  }
  // A steered open load asked for its steered schedule, not its plan (a pause is no shortfall).
  if (requestedRps !== null && steered.length > 0 && Number.isFinite(plannedMs)) {
    const measuredMs = Math.min(workers.activeMs, plannedMs);
    const arrivals = steeredArrivalsPerSec(config, steered, plannedMs, measuredMs);
    requestedRps = shareOfRate(arrivals * requestsPerArrival(config), config.segment?.count ?? 1);
    aggregator.setRequestedRps(requestedRps);
  }
  for (const flows of alignFlowSamples(flowSamples)) flowAggregator.add(flows);
  const hostTcp = hostTcpDelta(tcpBefore, readHostTcp());
  const { activeMs } = workers;
  const durationMs = Number.isFinite(plannedMs) ? Math.min(activeMs, plannedMs) : activeMs;
  const durationSec = Math.max(durationMs, 1) / 1000;
  const run: RunResult = {
    name,
    url: config.url,
    model: config.model,
    config: configToJson(config),
    startedAt,
    durationSec,
    warmupSec: config.warmupMs / 1000,
    targetRps: requestedRps,
    workers: config.workers,
    ...aggregator.finish(durationSec),
    preConnected: workers.preConnected,
    preConnectEstimateMs: workers.preConnectEstimateMs,
    generatorWarmupMs: Math.round(workers.generatorWarmupMs),
    maxConnectsInFlight: workers.maxConnectsInFlight,
    ...(workers.dataRanOutWorkers ? { dataRanOutWorkers: workers.dataRanOutWorkers } : {}),
    transport: workers.transport,
    ...(workers.transportFallback !== null ? { transportFallback: workers.transportFallback } : {}),
    protocol: workers.protocol,
    ...(workers.protocol !== "http1"
      ? { streams: config.streams, maxStreamsPerConnection: workers.maxStreamsPerConnection }
      : {}),
    ...(hostTcp !== null ? { hostTcp } : {}),
    ...(workers.tlsSession !== null ? { tls: { ...workers.tlsSession } } : {}),
    ...(config.flows || config.script ? { flows: flowAggregator.finish() } : {}),
    ...(workers.wsResult ? { ws: workers.wsResult } : {}),
    ...(config.logFile ? { logFile: config.logFile } : {}),
    ...(config.segment ? { segment: segmentOf(config.segment, workers) } : {}),
    ...(steered.length ? { steering: steered } : {}),
    ...(abort.abortedBy ? { incomplete: true, abortedBy: abort.abortedBy } : {}),
    // A worker ended for not stopping (worker/pool.ts): its last interval's counts are missing.
    ...(workers.stuckWorkers ? { incomplete: true, stuckWorkers: workers.stuckWorkers } : {}),
  };
  if (workers.logError) throw new RequestLogFailed(workers.logError, run);
  return run;
}

/**
 * The live side of `abortOn`: judges each complete interval until the load is done, and stops it on a
 * failure. One found only at the planned end (the last interval completes as the load stops) stops
 * nothing: the run went its whole length, and the threshold fails after it as any threshold does.
 */
function abortOnFail(rules: AbortRule[], intervalMs: number, plannedMs: number) {
  const controller = new AbortController();
  const watch = rules.length > 0 ? new AbortWatch(rules, intervalMs) : null;
  let running = true;
  const state = {
    signal: controller.signal,
    abortedBy: null as AbortedBy | null,
    onInterval: watch === null ? undefined : (delta: Readonly<IntervalDelta>) => {
      // A late sample's few responses belong to an interval already judged: they are in the results.
      if (!running || delta.late || state.abortedBy !== null) return;
      const failed = watch.add(delta);
      if (failed === null || failed.atSec * 1000 >= plannedMs) return;
      state.abortedBy = failed;
      controller.abort();
    },
    /** The load ended: intervals completed from now on (at the end) no longer stop anything. */
    done: () => (running = false),
  };
  return state;
}

/** A shard's segment as results record it: when its schedule started, how late it was for it. */
function segmentOf(segment: { index: number; count: number }, workers: WorkersSummary): RunResult["segment"] {
  return {
    ...segment,
    startAt: new Date(workers.startAtEpochMs).toISOString(),
    lateMs: Math.round(workers.startLateMs),
  };
}

/**
 * The requested rate of open models, averaged over the measured phases; null for closed ones. With
 * flows the schedule is of sessions: times the requests a session sends on average (by weight); with a
 * WebSocket storm it is of connections: times the messages each sends, so it is compared with the
 * messages served (results/conclude/ws_storm.ts states the connections).
 */
function targetRps(config: AttackConfig): number | null {
  // A script's session sends as many requests as its code does: no requested rate of requests to compare.
  if (config.script) return null;
  const arrivalsPerSec = modelDef(config.model).targetArrivalsPerSec(config);
  return arrivalsPerSec === null ? null : arrivalsPerSec * requestsPerArrival(config);
}

function shareOfRate(ratePerSec: number | null, segments: number): number | null {
  return ratePerSec === null ? null : ratePerSec / segments;
}

function requestsPerArrival(config: AttackConfig): number {
  if (config.ws && config.ws.messagesPerConnection > 0) return config.ws.messagesPerConnection;
  if (!config.flows) return 1;
  let weights = 0, requests = 0;
  for (const flow of config.flows) {
    weights += flow.weight;
    // A ws step that waits for its message counts as one request (its answer is recorded as one).
    requests += flow.weight *
      flow.steps.filter((s) => "request" in s || ("ws" in s && wsStepWaits(s))).length;
  }
  return requests / weights;
}

/** The config as plain JSON for results.json: bodies are summarised by size, not embedded. */
export function configToJson(config: AttackConfig): Record<string, unknown> {
  return {
    ...config,
    requestMix: config.requestMix.map(withoutBody),
    ...(config.flows
      ? {
        flows: config.flows.map((flow) => ({
          ...flow,
          steps: flow.steps.map((step) =>
            "request" in step ? { ...step, request: withoutBody(step.request) } : step
          ),
        })),
      }
      : {}),
    // The environment and setup's data stay out of results (they may hold secrets).
    ...(config.script ? { script: { path: config.script.path } } : {}),
    // The rows stay out of results (they may be large, or personal): the source is named and counted.
    ...(config.data ? { data: { ...config.data, rows: undefined, rowCount: config.data.rows.count } } : {}),
  };
}

function withoutBody({ body, ...rest }: RequestSpec): Record<string, unknown> {
  return { ...rest, ...(body ? { bodyBytes: body.length } : {}) };
}
