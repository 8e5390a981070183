/**
 * @module
 * One run of one load model against one URL: spawns the workers, merges their samples, reports progress,
 * feeds `abortOnFail` thresholds and metrics outputs each finished interval, and returns a `RunResult`.
 * Loads run together (`together:`, k6's scenarios) are one run: a script's `setup()` and `teardown()` once,
 * each load on its own workers `startAfterMs` after all are prepared; the first abort or failure stops all.
 */
import type { AttackConfig } from "./config.ts";
import type { AttackProgress, RunResult } from "../results/mod.ts";
import type { RequestSpec } from "./request_spec.ts";
import { type AggregatorOptions, RunAggregator } from "./stats/aggregate.ts";
import { endpointTable, wsStepWaits } from "./endpoint_table.ts";
import { runWorkers, START_LEAD_MS, type WorkersSummary, workersSummary } from "./worker/pool.ts";
import { DoneTotals } from "./worker/collect.ts";
import { createLogFile } from "./load/request_log.ts";
import { keepsUncorrected, measuredDurationMs, modelDef } from "./load/models/mod.ts";
import { hostCpuDelta, hostTcpDelta, readHostCpu } from "./stats/host.ts";
import { readHostTcp } from "../system/proc_stat.ts";
import { type AbortedBy, type AbortRule, AbortWatch } from "../results/thresholds/abort.ts";
import { hookInterval } from "../results/hook_requests.ts";
import type { IntervalDelta } from "../results/export/interval_delta.ts";
import { flowResults, type FlowSample } from "./stats/flow_counters.ts";
import { type SetupSent, withScriptSetup } from "./script/host/hooks.ts";
import { type RunSteering, steeredArrivalsPerSec } from "./steering.ts";
import { onTestAbort } from "./script/k6/test_abort.ts";
import type { SteerChange } from "../results/schema/steering.ts";
import { mergeParts } from "../results/merge/shard_runs.ts";
import { newRunCounters, PART_ENV } from "./script/run_state.ts";
import { defined } from "../validation/defined.ts";

export interface AttackHooks {
  name?: string;
  onProgress?(p: AttackProgress): void;
  progressEveryMs?: number;
  /** The schedule's start instant (ms since the epoch); the measured part begins `config.warmupMs` later. */
  onStart?(startAtEpochMs: number): void;
  signal?: AbortSignal;
  /** Thresholds judged on each completed interval; the first to fail stops the load (`abortedBy`). */
  abortOn?: AbortRule[];
  /** Each interval once every worker reported it (and `late` samples), for a metrics exporter: queue only. */
  onInterval?(delta: IntervalDelta): void;
  /** Live steering of this run (the dashboard's controls, `loadlab steer`); absent: it runs as planned. */
  steering?: RunSteering;
  /** The counters its workers share with the other loads of the run (runner/script/run_state.ts). */
  counters?: SharedArrayBuffer;
  /** The start every load of the run agrees on once all are prepared (a pool's `startGate`). */
  startGate?(): Promise<number>;
}

/** The request log (`--log`) could not be written in full; `run` is the measured result all the same. */
export class RequestLogFailed extends Error {
  override name = "RequestLogFailed";
  constructor(message: string, readonly run: RunResult) {
    super(message);
  }
}

/** The config with the server's gRPC schema when it asks for reflection: protobuf.js loads only then. */
const withReflectedSchema = async (config: AttackConfig) =>
  config.grpc?.reflect ? (await import("./http/grpc/reflected_run.ts")).withReflectedSchema(config) : config;

/** Runs the attack of a validated config; throws `RequestLogFailed` (with the result) when the log failed. */
export async function runAttack(config: AttackConfig, hooks: AttackHooks = {}): Promise<RunResult> {
  // A gRPC run whose schema is the server's asks for it now, before any worker (the target is up).
  config = await withReflectedSchema(config);
  if (config.logFile) await createLogFile(config.logFile);
  // A session script's setup() runs once before the load; its teardown() once after, whatever happened.
  return await withScriptSetup(config, (ready, setup) => runLoaded(ready, hooks, setup), hooks.signal);
}

/** The run of a config whose script (if any) is set up. */
async function runLoaded(config: AttackConfig, hooks: AttackHooks, setup?: SetupSent): Promise<RunResult> {
  const name = hooks.name ?? "attack";
  const plannedMs = measuredDurationMs(config);
  // A script's session sends as many requests as its code does: no requested rate of requests to compare.
  let requestedRps = config.script
    ? null
    : requestedRpsOf(config, modelDef(config.model).targetArrivalsPerSec?.(config));
  // A rule scoped to another run by name (`other:p99<1s`) is not this run's, as after the run.
  const rules = (hooks.abortOn ?? []).filter((r) =>
    r.threshold.run === undefined || r.threshold.run === name
  );
  // A k6 script's abortOnFail, on its custom metrics and the run's, judged on k6's tick.
  const k6 = config.script ? await import("./script/k6/metrics_channel.ts") : null;
  const abort = abortOnFail(rules, config.intervalMs, plannedMs, k6?.k6LiveJudge() ?? null);
  // k6 judges from the test's start: setup()'s requests count, and a tick within setup() may end the test.
  if (setup && k6) {
    const samples = hookInterval(setup.sent, configToJson(config));
    setup.crossed = abort.fromSetup(samples, setup.ms, k6.JUDGE_EVERY_MS);
  }
  // The measured run's start on the wall clock, known once the workers are told when to start.
  const clock = { originEpochMs: 0 };
  const aggregator = new RunAggregator(aggregatorOptionsOf(config, requestedRps, clock, [
    abort.onInterval,
    hooks.onInterval,
  ]));
  const startedAt = new Date().toISOString();
  const tcpBefore = readHostTcp();
  const cpuBefore = readHostCpu();
  // A k6 script's exec.test.abort() stops the run at once, whatever interval it is in.
  const stopListening = config.script
    ? onTestAbort((message) =>
      abort.stop({
        threshold: `exec.test.abort(): ${message}`,
        atSec: clock.originEpochMs > 0 ? Math.max(0, (Date.now() - clock.originEpochMs) / 1000) : 0,
        actual: Number.NaN,
        testAbort: message,
      })
    )
    : null;
  // A k6 script whose setup() failed sends no load: its run holds what setup() sent.
  const { workers, steered, flowSamples } =
    await (config.script?.setupError === undefined && !setup?.crossed
      ? runSteered(config, hooks, name, { aggregator, clock, abort })
      : Promise.resolve({ workers: noLoad(config), steered: [], flowSamples: [] }).finally(abort.done))
      .finally(() => stopListening?.());
  // A steered open load asked for its steered schedule, not its plan (a pause is no shortfall).
  if (requestedRps !== null && steered.length > 0 && Number.isFinite(plannedMs)) {
    const arrivals = steeredArrivalsPerSec(config, steered, plannedMs, Math.min(workers.activeMs, plannedMs));
    requestedRps = requestedRpsOf(config, arrivals);
    aggregator.setRequestedRps(requestedRps);
  }
  const hostTcp = hostTcpDelta(tcpBefore, readHostTcp());
  const hostCpu = hostCpuDelta(cpuBefore, readHostCpu());
  const flows = flowResults(flowSamples);
  // The run's length is what the workers were active, up to the plan (Infinity when a count bounds it).
  const durationSec = Math.max(Math.min(workers.activeMs, plannedMs), 1) / 1000;
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
    ...(hostTcp !== null ? { hostTcp } : {}),
    ...(hostCpu !== null ? { hostCpu } : {}),
    ...(config.flows || config.script ? { flows } : {}),
    ...(config.logFile ? { logFile: config.logFile } : {}),
    ...(steered.length ? { steering: steered } : {}),
    ...workers.part,
    ...(abort.abortedBy ? { incomplete: true, abortedBy: abort.abortedBy } : {}),
  };
  if (workers.logError) throw new RequestLogFailed(workers.logError, run);
  return run;
}

/** One load of the run with its start after the run's. */
export interface AttackPart {
  name: string;
  startAfterMs: number;
  config: AttackConfig;
}

/** Runs `parts` at once against their (one) target; one result named `hooks.name`. */
export async function runAttackParts(given: AttackPart[], hooks: AttackHooks = {}): Promise<RunResult> {
  // A gRPC load whose schema is the server's asks for it now, as a lone run does (runAttack).
  const parts = await Promise.all(
    given.map(async (p) => ({ ...p, config: await withReflectedSchema(p.config) })),
  );
  // Setup runs with the first's script: the loads of one run share it.
  return await withScriptSetup(parts[0].config, async (ready, setup) => {
    const stop = new AbortController();
    const signal = hooks.signal ? AbortSignal.any([hooks.signal, stop.signal]) : stop.signal;
    // The loads start together once the slowest is prepared: a fixed start could find sends due long ago.
    let preparing = parts.length, allPrepared = (_ms: number) => {};
    const startMs = new Promise<number>((resolve) => allPrepared = resolve);
    const counters = newRunCounters();
    const runs = await Promise.all(parts.map(async (part, k) => {
      const script = ready.script && { ...ready.script, env: { ...ready.script.env, [PART_ENV]: part.name } };
      const config = { ...part.config, ...defined({ script }) };
      let partStartMs = 0;
      const run = await runLoaded(config, {
        ...hooks,
        name: part.name,
        signal,
        counters,
        startGate: () => {
          if (--preparing === 0) allPrepared(Date.now() + START_LEAD_MS);
          return startMs.then((ms) => partStartMs = ms + part.startAfterMs);
        },
        ...(k === 0 ? {} : { onProgress: undefined, onStart: undefined, steering: undefined }),
      }, setup).catch((err) => {
        stop.abort(); // the others wait for this one's start no longer
        throw err;
      });
      if (run.abortedBy) stop.abort();
      // Its schedule's start places its intervals on the run's when the loads are added into one.
      if (partStartMs > 0) run.config.startAtEpochMs = partStartMs;
      return run;
    }));
    return mergeParts(hooks.name ?? "attack", runs);
  }, hooks.signal);
}

function noLoad(config: AttackConfig): WorkersSummary {
  return workersSummary(config, [], new DoneTotals().summary(), Date.now(), 0);
}

interface LoadSinks {
  aggregator: RunAggregator;
  clock: { originEpochMs: number };
  abort: ReturnType<typeof abortOnFail>;
}

/** Runs the workers with live progress and steering; a script's flow totals are lined up once all are in. */
async function runSteered(
  config: AttackConfig,
  hooks: AttackHooks,
  name: string,
  { aggregator, clock, abort }: LoadSinks,
): Promise<{ workers: WorkersSummary; steered: SteerChange[]; flowSamples: FlowSample[][] }> {
  const flowSamples: FlowSample[][] = [];
  const timer = progressTimer(config, aggregator, hooks);
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
        clock.originEpochMs = startAtEpochMs + config.warmupMs;
        hooks.onStart?.(startAtEpochMs);
      },
      onSteerable: (send) => steering?.started(clock.originEpochMs, send),
      signal: hooks.signal ? AbortSignal.any([hooks.signal, abort.signal]) : abort.signal,
      counters: hooks.counters,
      startGate: hooks.startGate,
    });
  } finally {
    clearInterval(timer);
    abort.done();
    if (steering) steered = steering.end();
  }
  return { workers, steered, flowSamples };
}

/** How the run's samples are merged; complete intervals go to `onInterval` stamped with their end. */
function aggregatorOptionsOf(
  config: AttackConfig,
  requestedRps: number | null,
  clock: { originEpochMs: number },
  onInterval: Array<((delta: IntervalDelta) => void) | undefined>,
): AggregatorOptions {
  const listeners = onInterval.filter((f) => f !== undefined);
  return {
    intervalMs: config.intervalMs,
    requestedRps,
    uncorrected: keepsUncorrected(config),
    intervalHistograms: config.intervalHistograms,
    workers: config.workers,
    // Responses of the graceful stop fold into the last measured interval; a second covers the drain.
    foldWindowMs: config.gracefulStopMs + 1_000,
    // Sample endpoint k is endpoint k here; a script's samples carry names instead.
    endpoints: config.script ? [] : endpointTable(config).endpoints,
    namedEndpoints: config.script !== undefined,
    onInterval: listeners.length === 0 ? undefined : (delta: IntervalDelta) => {
      // Its nominal end; the exporter stamps a last, partial interval no later than it is handed on.
      delta.endEpochMs = clock.originEpochMs + (delta.index + 1) * config.intervalMs;
      for (const listener of listeners) listener(delta);
    },
  };
}

/** Live progress every `progressEveryMs` (default 250 ms) while the load runs, when asked for. */
function progressTimer(config: AttackConfig, aggregator: RunAggregator, hooks: AttackHooks) {
  const onProgress = hooks.onProgress;
  if (!onProgress) return undefined;
  const startMs = performance.now();
  const plannedMs = measuredDurationMs(config);
  const totalSec = Number.isFinite(plannedMs) ? (plannedMs + config.warmupMs) / 1000 : null;
  return setInterval(() => {
    onProgress({ elapsedSec: (performance.now() - startMs) / 1000, totalSec, ...aggregator.live() });
  }, hooks.progressEveryMs ?? 250);
}

/** Judges each complete interval for `abortOn` and `scriptJudge`; a failure stops the load early. */
function abortOnFail(
  rules: AbortRule[],
  intervalMs: number,
  plannedMs: number,
  scriptJudge: ((nowMs: number, builtIn: AbortedBy | null) => AbortedBy | null) | null,
) {
  const controller = new AbortController();
  const watch = rules.length > 0 ? new AbortWatch(rules, intervalMs) : null;
  let running = true, setupMs = 0;
  const state = {
    signal: controller.signal,
    abortedBy: null as AbortedBy | null,
    onInterval: watch === null && scriptJudge === null ? undefined : (delta: Readonly<IntervalDelta>) => {
      // A late sample's few responses belong to an interval already judged: they are in the results.
      if (!running || delta.late || state.abortedBy !== null) return;
      const builtIn = watch?.add(delta) ?? null, loadMs = (delta.index + 1) * intervalMs;
      const failed = scriptJudge === null ? builtIn : scriptJudge(setupMs + loadMs, builtIn);
      if (failed !== null && loadMs < plannedMs) state.stop(failed);
    },
    /** Adds setup()'s samples; a rule they fail at a tick (each `tickMs`) within its `ms` stops the test. */
    fromSetup: (iv: ReturnType<typeof hookInterval>, ms: number, tickMs: number) => {
      setupMs = ms;
      const builtIn = watch?.add(iv) ?? null;
      if (ms < tickMs) return false;
      const failed = scriptJudge === null ? builtIn : scriptJudge(ms, builtIn);
      if (failed !== null) state.stop(failed);
      return state.abortedBy !== null;
    },
    /** The load ended: intervals completed from now on (at the end) no longer stop anything. */
    done: () => (running = false),
    /** Stops the load now for `by` (a script's exec.test.abort()), unless it ended or stopped already. */
    stop: (by: AbortedBy) => {
      if (!running || state.abortedBy !== null) return;
      state.abortedBy = by;
      controller.abort();
    },
  };
  return state;
}

/** The req/s asked of this segment (the shards' add up) at `arrivalsPerSec`; null for a closed model. */
function requestedRpsOf(config: AttackConfig, arrivalsPerSec: number | null | undefined): number | null {
  if (arrivalsPerSec == null) return null;
  return arrivalsPerSec * requestsPerArrival(config) / (config.segment?.count ?? 1);
}

/** Requests an arrival makes: a flow's (by weight), a storm's messages per connection, else one. */
function requestsPerArrival(config: AttackConfig): number {
  if (config.ws && config.ws.messagesPerConnection > 0) return config.ws.messagesPerConnection;
  if (!config.flows) return 1;
  let weights = 0, requests = 0;
  for (const flow of config.flows) {
    weights += flow.weight;
    // A ws step that waits for its message counts as one request (its answer is recorded as one).
    requests += flow.weight *
      flow.steps.filter((s) => "request" in s || "grpc" in s || ("ws" in s && wsStepWaits(s))).length;
  }
  return requests / weights;
}

/** The config as plain JSON for results.json: bodies are summarised by size, not embedded. */
function configToJson(config: AttackConfig): Record<string, unknown> {
  const { flows, script, data, grpc } = config;
  return {
    ...config,
    requestMix: config.requestMix.map(withoutBody),
    ...defined({
      flows: flows?.map((flow) => ({
        ...flow,
        steps: flow.steps.map((step) =>
          "request" in step ? { ...step, request: withoutBody(step.request) } : step
        ),
      })),
      // The environment and setup's data stay out of results (they may hold secrets).
      // The routes say which origins went to the target, the expected statuses which answers failed, the
      // system tags which tags k6's samples carry (results/thresholds/selector.ts).
      script: script && defined({
        path: script.path,
        routes: script.routes,
        expectedStatuses: script.expectedStatuses,
        systemTags: script.systemTags,
      }),
      // The rows stay out of results (they may be large, or personal): the source is named and counted.
      data: data && { ...data, rows: undefined, rowCount: data.rows.count },
      // A gRPC run's schema (a FileDescriptorSet) is summarised by size, as bodies are.
      grpc: grpc?.schema && { ...grpc, schema: undefined, schemaBytes: grpc.schema.length },
    }),
  };
}

function withoutBody({ body, grpcMessage, ...rest }: RequestSpec): Record<string, unknown> {
  // A gRPC message template is encoded per call: results say so, not its pieces.
  return { ...rest, ...defined({ bodyBytes: body?.length, grpcTemplate: grpcMessage ? true : undefined }) };
}
