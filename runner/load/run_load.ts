/**
 * @module
 * A worker's load: readied before t0 so no start-up cost falls after it, then run under one timer (timeouts,
 * intervals); at the end in-flight requests get `gracefulStopMs`, then count as `unfinished`.
 */
import { httpFormOf, type WsRun, wsRunOf } from "../http/ws/run.ts";
import type { WsStats } from "../http/ws/stats.ts";
import type { AttackConfig } from "../config.ts";
import { type ConnectionShared, connectionShared, type LoadConnection } from "../http/load_connection.ts";
import { alpnOf, probeProtocol, protocolRowOf, PROTOCOLS } from "../http/protocols.ts";
import { dialTarget } from "../http/transport/transport.ts";
import { connectToOf } from "../http/tls/material.ts";
import { chooseTransport } from "../http/transport/choice.ts";
import { RequestMix } from "../http/request.ts";
import {
  type AnyModelDef,
  keepsUncorrected,
  loadBoundMs,
  measuredDurationMs,
  modelDef,
  pacingOf,
  poolSizeOf,
} from "./models/mod.ts";
import { shareOf, stripeOf } from "./schedule.ts";
import { preConnect } from "./pre_connect.ts";
import type { PoolSize } from "./models/model.ts";
import { burstConfig, burstsOf, type WarmupOptions } from "./generator_warmup.ts";
import { IntervalRecorder } from "../stats/recorder.ts";
import { ConnectGate, CONNECTS_IN_FLIGHT_PER_WORKER } from "../http/transport/connect_gate.ts";
import { Feeder } from "./feeder.ts";
import { type Arrival, closeAll, exchangeArrival, type LoadContext } from "./executor.ts";
import { RequestLog } from "./request_log.ts";
import { waitUntil } from "./clock.ts";
import type { GrpcStepMaker } from "./flow_plan.ts";
import type { FlowSessions, flowSessionsOf, SessionRun } from "./flow_session.ts";
import { WorkerSteering } from "./steer.ts";
import type { SteerChange } from "../../results/schema/steering.ts";
import type { LoadedScript } from "../script/load.ts";
import type { IntervalSample } from "../stats/sample.ts";
import { pacedMs } from "./models/count.ts";
import { GeneratorMeter } from "../stats/generator_meter.ts";
import { endpointTable } from "../endpoint_table.ts";
import type { LoadRun, LoadRunOptions, LoadRunSummary, PreparedLoad } from "./load_run_types.ts";

/** Runs the bursts (generator_warmup.ts) as this worker's load against their sink; never throws. */
export async function warmUpGenerator(config: AttackConfig, options: WarmupOptions = { ws: null }) {
  const beganMs = performance.now();
  const bursts = await burstsOf(config, options);
  if (bursts === null) return { durationMs: 0, answered: 0 };
  let answered = 0;
  try {
    for (const durationMs of bursts.burstsMs) {
      const load = await prepareLoad({
        config: burstConfig(config, bursts.sink.url, options.ws, durationMs),
        workerIndex: 0,
        workerCount: 1,
        // Draining exercises the interval encoding too; the burst's samples are only counted.
        onSamples: (samples) => samples.forEach((s) => answered += s.requests),
        sinkOnThread: options.ws === null,
      });
      await load.start(performance.now() + 1).done;
    }
  } catch {
    // A cold generator is the worst outcome; the run itself still goes ahead.
  } finally {
    bursts.sink.close();
  }
  return { durationMs: performance.now() - beganMs, answered };
}

/** Readies this worker's share before t0 (warm-up, then the pool); only connects reach the target. */
export async function prepareLoad(opts: LoadRunOptions): Promise<PreparedLoad> {
  const { config } = opts;
  // From here on the worker is its stripe of the whole load (segments are one more level of striping).
  opts = { ...opts, ...stripeOf(config.segment, opts.workerIndex, opts.workerCount) };
  const model = modelDef(config.model);
  const script = config.script === undefined
    ? null
    : await (await import("../script/load.ts")).loadScript(config.script);
  // A flow's gRPC steps need the protobuf library: loaded for a run that has them, not for every worker.
  const grpcSteps = config.flows !== undefined && config.grpc?.schema !== undefined
    ? (await import("./grpc_steps.ts")).grpcStepMaker(config.grpc.schema)
    : null;
  const flowSessionsOf = config.flows === undefined
    ? null
    : (await import("./flow_session.ts")).flowSessionsOf;
  // ws: the burst echoes the run's messages; the http(s) form of the URL picks the transport and TLS path.
  const wsUrl = new URL(config.url);
  const isWs = wsUrl.protocol === "ws:" || wsUrl.protocol === "wss:";
  // A ws:// run given no `ws` config takes its defaults from the schema, loaded for that run only.
  const ws = isWs ? config.ws ?? (await import("../http/ws/config.ts")).WS_DEFAULTS : null;
  const wsRun = ws === null ? null : wsRunOf(wsUrl, ws);
  const generatorWarmupMs = config.generatorWarmup
    ? (await warmUpGenerator(config, { ws, sinkUrl: opts.warmupSinkUrl })).durationMs
    : 0;
  const link = await linkOf(opts, wsUrl, wsRun);
  const { chosen, pool } = link;
  return {
    summary: {
      preConnected: pool.connections.length,
      preConnectEstimateMs: pool.estimateMs,
      generatorWarmupMs,
      transport: chosen.kind,
      transportFallback: chosen.fallbackReason,
      protocol: link.protocol,
    },
    start: (startMs) =>
      runPrepared(opts, { ...link, model, wsRun, script, grpcSteps, flowSessionsOf }, startMs),
  };
}

type Link = Awaited<ReturnType<typeof linkOf>>;

/** Chooses the transport (closed on every exit path), settles ALPN, builds the shared state and the pool. */
async function linkOf(opts: LoadRunOptions, wsUrl: URL, wsRun: WsRun | null) {
  const { config } = opts;
  const url = httpFormOf(wsUrl);
  const { hostname, port } = dialTarget(url, connectToOf(config.tls));
  const offer = alpnOf(url, wsRun !== null ? "http1" : config.protocol);
  // HTTP/3 dials Deno's QUIC itself: the TCP transport is Deno's, never dialed.
  const chosen = chooseTransport(url, config.protocol === "h3" ? "deno" : config.transport, {
    // The warm-up's HTTP sink answers on this thread: the pump must never block it (epoll, not io_uring).
    closedModel: isClosedModel(config) && opts.sinkOnThread !== true,
    preferUring: wsRun !== null && wsRun.pingIntervalMs === 0,
    tls: config.tls,
    alpn: offer.alpn,
    sourceAddresses: config.sourceAddresses,
  });
  try {
    const feeder = config.data === undefined
      ? null
      : new Feeder(config.data, opts.workerIndex, opts.workerCount);
    const protocol = offer.settled ?? await probeProtocol(chosen, hostname, port, config.timeoutMs);
    // Each request's endpoint is fixed here, so a response is recorded under it by index.
    const endpoints = endpointTable(config).mix;
    const recorder = recorderOf(config);
    if (opts.heartbeat !== undefined) recorder.markProgressIn(new Float64Array(opts.heartbeat));
    const shared = connectionShared({
      hostname,
      port,
      transport: chosen.transport,
      connectBy: chosen.connectBy,
      recorder,
      mix: new RequestMix(url, config.requestMix, opts.workerIndex * 7919, config.data?.columns, endpoints),
      rows: config.flows === undefined && config.script === undefined ? feeder : null,
      timeoutMs: config.timeoutMs,
      connectTimeoutMs: config.connectTimeoutMs,
      maxHeaderBytes: config.maxHeaderBytes,
      connectGate: connectGateOf(config),
      connectsBesideTraffic: chosen.kind !== "deno",
      log: null,
      stopping: false,
    });
    const connections: LoadConnection[] = [];
    const idBase = opts.workerIndex * 1_000_000;
    const factory = await PROTOCOLS[protocolRowOf(wsUrl, protocol, config.grpc !== undefined)]({
      shared,
      url,
      config,
      endpoints,
      spread: config.concurrency !== undefined && "connections" in config
        ? shareOf(config.connections, opts.workerIndex, opts.workerCount)
        : 0,
      idBase,
      ws: wsRun ?? undefined,
    });
    const newConnection = () => {
      const conn = factory.next(idBase + connections.length);
      connections.push(conn);
      return conn;
    };
    // The watchdog already runs, so a connect of the pool hangs no longer than the timeout.
    const watch = setInterval(() => watchdog(connections, performance.now()), 50);
    const size = poolSizeOf(config, opts.workerIndex, opts.workerCount);
    const pool = await preConnect(inStreams(size, factory.perConnection), newConnection)
      .finally(() => clearInterval(watch));
    return { chosen, protocol, shared, factory, feeder, connections, newConnection, pool };
  } catch (err) {
    chosen.close();
    throw err;
  }
}

/** A pool size in connections as one in HTTP/2 stream slots (`streams` of them to a connection). */
function inStreams(size: PoolSize, streams: number): PoolSize {
  if (size === null || streams === 1) return size;
  return "count" in size ? { count: size.count * streams } : { ...size, max: size.max * streams };
}

/** A load made ready: its link, its pool, the model and what its arrivals run (script, flows, ws). */
type Prepared = Link & {
  model: AnyModelDef;
  wsRun: WsRun | null;
  script: LoadedScript | null;
  grpcSteps: GrpcStepMaker | null;
  flowSessionsOf: typeof flowSessionsOf | null;
};

interface RunState {
  ctx: LoadContext<AttackConfig>;
  /** When a stop request or the end of the data rows stopped new arrivals; Infinity until then. */
  stopAtMs: number;
  /** Ends sessions (their next step, their think time) on a stop request or past the graceful stop. */
  ended: AbortController;
  /** Aborted as the load's span ends or on a stop request (script sessions' `s.stopping`). */
  stopping: AbortController;
  originMs: number;
  sessions: FlowSessions | null;
  scripted: ReturnType<LoadedScript["arrival"]> | null;
  wsStats: WsStats | null;
  /** Closed models: the worker's thread, measured per interval (an open model's late sends say it). */
  meter: GeneratorMeter | null;
  /** Why a count ended short of its count (its max duration, its idle sessions), once known. */
  countEnd: CountEnd;
  /** Script sessions' connections beside the load's (flow_session.ts `SessionRun.sides`). */
  sides: Set<LoadConnection>;
}

function runPrepared(opts: LoadRunOptions, prepared: Prepared, startMs: number): LoadRun {
  const { config } = opts;
  const recorder = prepared.shared.recorder;
  const originMs = startMs + config.warmupMs;
  recorder.setOrigin(originMs);
  const sessions = prepared.flowSessionsOf?.(config, originMs, {
    workerIndex: opts.workerIndex,
    feeder: prepared.feeder,
    h2Steps: prepared.factory.h2Steps,
    grpcSteps: prepared.grpcSteps,
    wsLoad: prepared.wsRun !== null,
  }) ?? null;
  // Whole-run ws loads count their connections' messages, flows their sessions', scripts their own sockets'.
  const wsStats = prepared.wsRun?.stats ?? sessions?.options.ws?.stats ?? prepared.script?.wsStats() ?? null;
  if (wsStats !== null) {
    wsStats.originMs = originMs;
    recorder.countWs(wsStats);
  }
  const ended = new AbortController(), stopping = new AbortController();
  const sides = new Set<LoadConnection>();
  const sessionRun: SessionRun = {
    shared: prepared.shared,
    ended: ended.signal,
    stopping: stopping.signal,
    sides,
  };
  const scripted = prepared.script?.arrival(sessionRun, { ...opts, originMs, feeder: prepared.feeder }) ??
    null;
  const perArrival = config.connection === "per-arrival";
  const arrival = scripted?.arrival ?? sessions?.arrival(sessionRun, perArrival) ??
    exchangeArrival(perArrival);
  const ctx = contextOf(opts, prepared, startMs, arrival);
  const meter = isClosedModel(config)
    ? new GeneratorMeter(originMs, config.intervalMs, tickMsOf(config), {
      readyWait: prepared.chosen.takeReadyWait,
    })
    : null;
  const run: RunState = {
    ctx,
    stopAtMs: Infinity,
    ended,
    stopping,
    originMs,
    sessions,
    scripted,
    wsStats,
    meter,
    countEnd: new CountEnd(config, scripted?.sessions ?? null),
    sides,
  };
  const steer = (change: SteerChange) => ctx.steer.add(change);
  // A replayed schedule: every change known from the start, each taking effect at its instant.
  for (const change of config.steering ?? []) steer(change);
  // Responses after the load's end are the drain: counted apart from the rate served over the window.
  recorder.setLoadEnd(ctx.endMs);
  if (prepared.feeder !== null) prepared.feeder.onExhausted = () => stopArrivals(run, prepared.shared);
  const done = runToEnd(opts, prepared, run).finally(() => prepared.chosen.close());
  return {
    done,
    steer,
    stop() {
      if (ctx.stopRequested) return;
      stopArrivals(run, prepared.shared);
      stopping.abort();
      ended.abort();
    },
    inProgress: () => scripted?.sessions.inProgress() ?? 0,
    flush() {
      opts.onSamples(recorder.drain(performance.now(), true));
      if (sessions !== null) opts.onFlows?.(sessions.recorder.take());
      if (scripted !== null) opts.onFlows?.(scripted.sessions.recorder.take());
    },
  };
}

/** The model's context; a steering change that ends the load early moves its end (and the drain's). */
function contextOf(
  opts: LoadRunOptions,
  prepared: Prepared,
  startMs: number,
  arrival: Arrival | null,
): LoadContext<AttackConfig> {
  const { config } = opts;
  const spanMs = config.warmupMs + measuredDurationMs(config);
  const ctx: LoadContext<AttackConfig> = {
    config,
    shared: prepared.shared,
    workerIndex: opts.workerIndex,
    workerCount: opts.workerCount,
    startMs,
    // A count without a duration stops at its max duration (the steering still sees it unbounded).
    endMs: startMs + config.warmupMs + loadBoundMs(config),
    stopRequested: false,
    newConnection: prepared.newConnection,
    pool: prepared.pool.connections,
    streamsPerConnection: prepared.factory.perConnection,
    concurrency: config.concurrency,
    arrival,
    steer: new WorkerSteering(config, startMs, spanMs, (endMs) => {
      ctx.endMs = Math.min(ctx.endMs, Math.max(endMs, performance.now()));
      prepared.shared.recorder.setLoadEnd(ctx.endMs);
    }, (total) => prepared.factory.perConnection * shareOf(total, opts.workerIndex, opts.workerCount)),
  };
  return ctx;
}

/**
 * An open schedule is measured over its whole span (else its rate is over the time to its last answer);
 * a stop or the data rows running out end it at once; a closed count ends at its last answer.
 */
async function outlastSchedule(ctx: LoadContext, config: AttackConfig): Promise<void> {
  // A count's duration only bounds it: its span is its schedule's, when it has one.
  const spanMs = config.model === "count" ? pacedMs(config) || Infinity : measuredDurationMs(config);
  if (!Number.isFinite(spanMs)) return;
  const endMs = Math.min(ctx.endMs, ctx.startMs + config.warmupMs + spanMs);
  while (!ctx.stopRequested && performance.now() < endMs) await ctx.steer.waitChange(endMs);
}

/** No new arrival from now (a stop request, or the data rows ran out); those in progress finish. */
function stopArrivals(run: RunState, shared: ConnectionShared): void {
  run.ctx.stopRequested = true;
  run.ctx.steer.interrupt();
  run.stopAtMs = Math.min(run.stopAtMs, performance.now());
  shared.recorder.setLoadEnd(run.stopAtMs);
}

/** Waits for t0, runs the model under the timer, then drains the last samples and sums the worker up. */
async function runToEnd(opts: LoadRunOptions, prepared: Prepared, run: RunState): Promise<LoadRunSummary> {
  const { config } = opts;
  const { shared } = prepared;
  if (config.logFile) {
    shared.log = await RequestLog.open(config.logFile, run.originMs, config.keepSentLatency);
  }
  await waitUntil(run.ctx.startMs);
  const timer = setInterval(() => tick(opts, prepared, run), tickMsOf(config));
  // The graceful stop's end on time, not at the next tick: calls in flight then are cut there.
  const cut = setTimeout(
    () => tick(opts, prepared, run),
    Math.max(0, run.ctx.endMs + config.gracefulStopMs - performance.now()) + 1,
  );
  try {
    await prepared.model.run(run.ctx);
    await outlastSchedule(run.ctx, config);
  } finally {
    clearInterval(timer);
    clearTimeout(cut);
    // The intervals ended by now are sampled before the connections close: their gauge is the load's.
    opts.onSamples(metered(run, prepared.shared.recorder.drain(performance.now(), false)));
    endConnections(prepared, performance.now(), undefined, run.sides);
    prepared.chosen.close();
  }
  run.countEnd.ended(performance.now(), run.ctx.endMs, run.stopAtMs);
  const { scripted, sessions, wsStats } = run;
  // A script's promises rejected in its last turns are reported by the runtime on the next one.
  if (scripted !== null) await scripted.settled();
  scripted?.guard();
  const endMs = performance.now();
  run.meter?.tick(endMs);
  opts.onSamples(metered(run, shared.recorder.drain(endMs, true)));
  if (sessions !== null) opts.onFlows?.(sessions.recorder.take());
  if (scripted !== null) opts.onFlows?.(scripted.sessions.recorder.take());
  scripted?.dispose();
  // A failed log costs the log, not the measurements: reported beside them instead of thrown.
  const logError = await (shared.log as RequestLog | null)?.close().then(
    () => undefined,
    (err) => (err as Error).message,
  );
  return {
    activeMs: Math.max(0, Math.min(endMs, run.ctx.endMs, run.stopAtMs) - run.originMs),
    tailMs: Math.max(0, Math.min(endMs, run.stopAtMs) - run.ctx.endMs),
    maxConnectsInFlight: shared.connectGate.maxInFlight,
    tlsSession: prepared.factory.tlsInfo?.() ?? prepared.chosen.tlsInfo(),
    maxStreamsPerConnection: prepared.factory.maxOpenStreams(),
    ...(wsStats !== null ? { ws: wsStats.take() } : {}),
    ...(logError ? { logError } : {}),
    ...(prepared.feeder !== null && prepared.feeder.exhausted > 0 ? { dataRanOut: true } : {}),
    ...(run.countEnd.endedBy ? { endedBy: run.countEnd.endedBy } : {}),
  };
}

/** The run's timer: timeouts, the cut past the graceful stop, and the finished intervals to the caller. */
function tick(opts: LoadRunOptions, prepared: Prepared, run: RunState): void {
  run.scripted?.guard();
  const nowMs = performance.now();
  watchdog(prepared.connections, nowMs);
  if (run.sides.size > 0) watchdog(run.sides, nowMs);
  run.meter?.tick(nowMs);
  const stopMs = Math.min(run.ctx.endMs, run.stopAtMs);
  if (nowMs >= stopMs && !run.stopping.signal.aborted) run.stopping.abort();
  if (nowMs > stopMs + opts.config.gracefulStopMs) {
    endConnections(prepared, nowMs, run.ended, run.sides);
  } else if (run.countEnd.idleAt(nowMs)) {
    // Nothing will ever be sent again: the count ends here, its sessions cut.
    stopArrivals(run, prepared.shared);
    endConnections(prepared, nowMs, run.ended, run.sides);
  }
  const samples = prepared.shared.recorder.drain(nowMs, false);
  if (samples.length) opts.onSamples(metered(run, samples));
}

/** The run timer's period (ms): timeouts, drains and the generator's meter. */
function tickMsOf(config: AttackConfig): number {
  return Math.min(config.intervalMs, 50);
}

/** Samples with the worker's thread load of their intervals, when it is measured. */
function metered(run: RunState, samples: IntervalSample[]): IntervalSample[] {
  return run.meter === null ? samples : run.meter.attach(samples);
}

/** Counts waits as `unfinished`, ends sessions, then connections (no cut read restarts one); once a run. */
function endConnections(
  prepared: Prepared,
  nowMs: number,
  ended: AbortController | undefined,
  sides: ReadonlySet<LoadConnection>,
): void {
  const { shared, connections } = prepared;
  if (!shared.stopping) {
    for (const conn of connections) conn.countUnfinished(nowMs);
    for (const conn of sides) conn.countUnfinished(nowMs);
  }
  closeAll(shared, connections, ended);
  closeAll(shared, [...sides]);
}

/** Aborts exchanges past their deadline; the failed read is then counted as a timeout. */
function watchdog(connections: Iterable<LoadConnection>, nowMs: number): void {
  for (const conn of connections) {
    if (conn.deadlineMs < nowMs) {
      conn.timedOut = true;
      conn.abort();
    }
  }
}

/** The run's recorder, counting nothing until `setOrigin` (at t0). */
export function recorderOf(config: AttackConfig): IntervalRecorder {
  return new IntervalRecorder({
    intervalMs: config.intervalMs,
    originMs: Infinity,
    uncorrected: keepsUncorrected(config),
    endpoints: endpointTable(config).endpoints.length,
    // A script's requests name their endpoints as they are sent (runner/script/sessions/send.ts).
    namedEndpoints: config.script !== undefined,
  });
}

/** Connects in flight at once: bounded for open models, free for closed ones (connect_gate.ts). */
export function connectGateOf(config: AttackConfig): ConnectGate {
  return new ConnectGate(isClosedModel(config) ? Infinity : CONNECTS_IN_FLIGHT_PER_WORKER);
}

function isClosedModel(config: AttackConfig): boolean {
  return pacingOf(config) === "closed";
}

interface IdleSessions {
  /** Every session in progress waits on the script's own code. */
  idle(): boolean;
}

/** Why a worker's count ended short: its max duration (k6's), or its script sessions idle past timeout. */
class CountEnd {
  endedBy: LoadRunSummary["endedBy"];
  /** Since when every session has waited on its own code; null while one does not. */
  #idleSinceMs: number | null = null;
  readonly #unbounded: boolean;
  readonly #bounded: boolean;
  readonly #timeoutMs: number;

  constructor(config: AttackConfig, readonly sessions: IdleSessions | null) {
    const measuredMs = measuredDurationMs(config);
    this.#unbounded = !Number.isFinite(measuredMs);
    this.#bounded = loadBoundMs(config) < measuredMs;
    this.#timeoutMs = config.timeoutMs;
  }

  /** Whether the idle rule ends the count at `nowMs` (marks it so); called on each turn of the run timer. */
  idleAt(nowMs: number): boolean {
    if (this.sessions === null || !this.#unbounded || this.endedBy !== undefined) return false;
    if (!this.sessions.idle()) {
      this.#idleSinceMs = null;
      return false;
    }
    this.#idleSinceMs ??= nowMs;
    if (nowMs - this.#idleSinceMs <= this.#timeoutMs) return false;
    this.endedBy = "idle";
    return true;
  }

  /** At the load's end: its max duration, not its count nor a stop (`stopAtMs`), ended it at `endMs`. */
  ended(nowMs: number, endMs: number, stopAtMs: number): void {
    if (this.#bounded && stopAtMs === Infinity && nowMs >= endMs) this.endedBy ??= "maxDuration";
  }
}
