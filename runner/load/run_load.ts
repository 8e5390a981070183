/**
 * @module
 * The worker-side runtime around a load model's run (runner/load/models/): builds the shared connection state and the recorder,
 * runs one timer that both enforces per-request timeouts (the watchdog scans deadlines, so no timer
 * per request) and drains finished intervals to the caller, and ends the run gracefully: after the
 * last start, in-flight requests get `gracefulStopMs` before their sockets are closed (those still
 * waiting then are counted as `unfinished`, apart from the failures). Two steps, so nothing of the
 * generator's own start-up falls after t0: `prepareLoad` (before t0: the generator's warm-up against an
 * in-process sink, then the pre-connect pool) and its `start(startMs)`. Used inside worker isolates.
 */
import { httpFormOf, type WsRun, wsRunOf } from "../http/ws/run.ts";
import { WS_DEFAULTS } from "../http/ws/config.ts";
import { type WsSample, WsStats } from "../http/ws/stats.ts";
import { MaskKeys } from "../../ws/frame_encoder.ts";
import { BufferBudget, DEFAULT_MAX_BUFFERED_BYTES } from "../../ws/buffer_budget.ts";
import type { WsResult } from "../../results/schema_ws.ts";
import { type AttackConfig, measuredDurationMs } from "../config.ts";
import { type ConnectionShared, connectionShared, type LoadConnection } from "../http/load_connection.ts";
import {
  alpnOf,
  type ConnectionFactory,
  probeProtocol,
  protocolRowOf,
  PROTOCOLS,
  type ProtocolUsed,
} from "../http/protocols.ts";
import { dialTarget } from "../http/transport/transport.ts";
import { connectToOf } from "../http/tls/options.ts";
import type { TlsSessionInfo } from "../http/tls/deno_tls.ts";
import { chooseTransport, type ChosenTransport, type TransportKind } from "../http/transport/choice.ts";
import { RequestMix } from "../http/request.ts";
import type { IntervalSample } from "../stats/sample.ts";
import { type AnyModelDef, modelDef, poolSizeOf } from "./models/mod.ts";
import { RequestLog } from "./request_log.ts";
import { waitUntil } from "./clock.ts";
import { stripeOf } from "./schedule.ts";
import { preConnect } from "./pre_connect.ts";
import type { PoolSize } from "./models/model.ts";
import { warmUpGenerator } from "./generator_warmup.ts";
import { connectGateOf, isClosedModel, loadContextOf, recorderOf } from "./run_parts.ts";
import { encodeFlows } from "./flow_plan.ts";
import { arrivalFor, FlowSessions, type SessionRun } from "./flow_session.ts";
import type { FlowSample } from "../stats/flow_counters.ts";
import { Feeder } from "./feeder.ts";
import { connectionsShareOf, WorkerSteering } from "./steer.ts";
import type { SteerChange } from "../../results/schema_steering.ts";
import { endpointTable } from "../endpoint_table.ts";
import { loadScript, scriptArrival } from "../script/script_load.ts";
import type { ScriptModule } from "../script/script_module.ts";

export interface LoadRunOptions {
  config: AttackConfig;
  workerIndex: number;
  workerCount: number;
  onSamples(samples: IntervalSample[]): void;
  /** The WebSocket warm-up's echo when the pool started one for all workers (ws_warmup_sink.ts). */
  warmupSinkUrl?: string;
  /** Called once at the end with this worker's flow totals, when the load has flows. */
  onFlows?(flows: FlowSample[]): void;
}

/** What a worker did before t0. */
export interface PrepareSummary {
  /** Connections open at t0. */
  preConnected: number;
  /** The latency estimate the pool was sized with (ms), null when not estimated. */
  preConnectEstimateMs: number | null;
  /** Time of the generator's warm-up against its sink (ms); 0 when skipped. */
  generatorWarmupMs: number;
  /** The transport chosen for this run (transport/choice.ts), and why epoll fell back, if it did. */
  transport: TransportKind;
  transportFallback: string | null;
  /** The HTTP version spoken (protocols.ts; `auto` resolved by ALPN). */
  protocol: ProtocolUsed;
}

/** What a worker reports when its share is done. */
export interface LoadRunSummary {
  /** Time from the start of the measured run to the end of this worker's load. */
  activeMs: number;
  /** Most connects to the target in flight at once in this worker, pre-connect included. */
  maxConnectsInFlight: number;
  /** https: what the worker's first handshake negotiated; null when none completed (or http:). */
  tlsSession: TlsSessionInfo | null;
  /** HTTP/2: most streams open at once on one connection of this worker (0 over HTTP/1.1). */
  maxStreamsPerConnection: number;
  /** Why the request log could not be written in full (a full disk...); the load itself still counts. */
  logError?: string;
  /** The load's data rows ran out in this worker (`whenDone: stop`, or `unique`): it stopped sending. */
  dataRanOut?: boolean;
  /** Summed over a pool's workers: how many ran out of data rows. */
  dataRanOutWorkers?: number;
  /** WebSocket runs: this worker's counts (handshakes, messages each way, close codes). */
  ws?: WsSample;
  /** WebSocket runs: the pool's, merged (set by the pool only). */
  wsResult?: WsResult;
  /** Workers ended for not stopping past their graceful stop (worker/pool.ts); set by the pool only. */
  stuckWorkers?: number;
}

/** A running load; `stop()` asks it to start nothing new and end gracefully; `steer` changes it. */
export interface LoadRun {
  done: Promise<LoadRunSummary>;
  steer(change: SteerChange): void;
  stop(): void;
}

/** A load made ready before t0: the generator warm, the pool open; `start` runs it. */
export interface PreparedLoad {
  summary: PrepareSummary;
  /** Starts the load at `startMs` (this isolate's `performance.now()`; warm-up of the target included). */
  start(startMs: number): LoadRun;
}

/**
 * Readies this worker's share before t0: warms the generator against an in-process sink (unless
 * `generatorWarmup` is off), then opens the pre-connect pool (pre_connect.ts). Nothing reaches the
 * target but connects.
 */
export async function prepareLoad(opts: LoadRunOptions): Promise<PreparedLoad> {
  const { config } = opts;
  // From here on the worker is its stripe of the whole load (segments are one more level of striping).
  opts = { ...opts, ...stripeOf(config.segment, opts.workerIndex, opts.workerCount) };
  const model = modelDef(config.model);
  const script = await loadScript(config);
  // ws: the burst echoes the run's messages; the http(s) form of the URL picks the transport and TLS path.
  const wsUrl = new URL(config.url);
  const isWs = wsUrl.protocol === "ws:" || wsUrl.protocol === "wss:";
  const wsRun = isWs ? wsRunOf(wsUrl, config.ws ?? WS_DEFAULTS) : null;
  const generatorWarmupMs = config.generatorWarmup
    ? (await warmUpGenerator(config, model, {
      ws: isWs ? config.ws ?? WS_DEFAULTS : null,
      closedModel: isClosedModel(config),
      sinkUrl: opts.warmupSinkUrl,
    })).durationMs
    : 0;
  const url = httpFormOf(wsUrl);
  const { hostname, port } = dialTarget(url, connectToOf(config.tls));
  // Each request's endpoint is fixed here, so a response is recorded under it by index.
  const endpoints = endpointTable(config);
  // The origin is set at start: until then (pre-connect) the recorder counts nothing.
  const recorder = recorderOf(config, model);
  // Chosen once per run; closed when the run ends (every exit path), so no socket outlives it.
  const offer = alpnOf(url, wsRun !== null ? "http1" : config.protocol);
  const chosen = chooseTransport(url, config.transport, {
    closedModel: isClosedModel(config),
    preferUring: wsRun !== null && wsRun.pingIntervalMs === 0,
    tls: config.tls,
    alpn: offer.alpn,
  });
  // The worker's stripe of the rows (one per arrival): the mix's templated requests, or sessions.
  const feeder = config.data === undefined
    ? null
    : new Feeder(config.data, opts.workerIndex, opts.workerCount);
  const protocol = offer.settled ?? await probeProtocol(chosen, hostname, port, config.timeoutMs);
  const shared = connectionShared({
    hostname,
    port,
    transport: chosen.transport,
    recorder,
    mix: new RequestMix(url, config.requestMix, opts.workerIndex * 7919, config.data?.columns, endpoints.mix),
    rows: config.flows === undefined && config.script === undefined ? feeder : null,
    timeoutMs: config.timeoutMs,
    maxHeaderBytes: config.maxHeaderBytes,
    connectGate: connectGateOf(config),
    log: null,
    stopping: false,
  });
  const connections: LoadConnection[] = [];
  const idBase = opts.workerIndex * 1_000_000;
  // The protocol's connections, from the table (protocols.ts): HTTP/1.1 connections, HTTP/2 stream
  // slots, or a ws: URL's WebSocket connections.
  const factory = PROTOCOLS[protocolRowOf(wsUrl, protocol)]({
    shared,
    url,
    requests: config.requestMix,
    endpoints: endpoints.mix,
    columns: config.data?.columns,
    pipelining: config.pipelining,
    streams: config.streams,
    perArrival: config.connection === "per-arrival",
    windowBytes: config.h2WindowBytes,
    idBase,
    ws: wsRun ?? undefined,
  });
  const newConnection = () => {
    const id = idBase + connections.length;
    const conn = factory.next(id);
    connections.push(conn);
    return conn;
  };
  // Pre-connects hang no longer than the timeout: the watchdog runs before t0 too.
  const watch = setInterval(() => watchdog(connections, performance.now()), 50);
  let pool;
  try {
    pool = await preConnect(
      inStreams(poolSizeOf(config, opts.workerIndex, opts.workerCount), factory.perConnection),
      newConnection,
    );
  } catch (err) {
    chosen.close();
    throw err;
  } finally {
    clearInterval(watch);
  }
  return {
    summary: {
      preConnected: pool.connections.length,
      preConnectEstimateMs: pool.estimateMs,
      generatorWarmupMs,
      transport: chosen.kind,
      transportFallback: chosen.fallbackReason,
      protocol,
    },
    start: (startMs) =>
      runPrepared(
        opts,
        {
          model,
          shared,
          connections,
          newConnection,
          pool: pool.connections,
          transport: chosen,
          feeder,
          factory,
          wsRun,
          script,
        },
        startMs,
      ),
  };
}

/** A pool size in connections as one in HTTP/2 stream slots (`streams` of them to a connection). */
function inStreams(size: PoolSize, streams: number): PoolSize {
  if (size === null || streams === 1) return size;
  return "count" in size ? { count: size.count * streams } : { ...size, max: size.max * streams };
}

interface Prepared {
  model: AnyModelDef;
  shared: ConnectionShared;
  connections: LoadConnection[];
  newConnection(): LoadConnection;
  pool: LoadConnection[];
  transport: ChosenTransport;
  feeder: Feeder | null;
  factory: ConnectionFactory;
  wsRun: WsRun | null;
  /** The session script's module (runner/script/), or null. */
  script: ScriptModule | null;
}

/** Runs a prepared load from `startMs` to its end and the graceful stop. */
function runPrepared(opts: LoadRunOptions, prepared: Prepared, startMs: number): LoadRun {
  const { config } = opts;
  const { shared, connections } = prepared;
  const recorder = shared.recorder;
  const url = new URL(config.url);
  const originMs = startMs + config.warmupMs;
  recorder.setOrigin(originMs);
  // A whole-run ws load counts its connections' messages; flows with ws steps count their sessions'.
  const flowWs = prepared.wsRun === null && config.flows?.some((f) => f.steps.some((s) => "ws" in s))
    ? {
      stats: new WsStats(),
      keys: new MaskKeys(),
      budget: new BufferBudget(config.ws?.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES),
    }
    : null;
  const wsStats = prepared.wsRun?.stats ?? flowWs?.stats ?? null;
  if (wsStats !== null) {
    wsStats.originMs = originMs;
    recorder.countWs(wsStats);
  }
  const spanMs = config.warmupMs + measuredDurationMs(config);
  const { feeder } = prepared;
  const cookies = config.cookies ?? true;
  const sessions = config.flows === undefined ? null : new FlowSessions(
    encodeFlows(
      url,
      config.flows,
      config.data?.columns,
      cookies,
      prepared.factory.h2Steps,
      endpointTable(config).flows,
      config.timeoutMs,
    ),
    config.flows.map((f) => f.weight),
    originMs,
    opts.workerIndex * 7919,
    { feeder, cookies, https: url.protocol === "https:", ws: flowWs },
  );
  // Ends sessions (their next step, their think time) on a stop request or past the graceful stop.
  const ended = new AbortController();
  const sessionRun: SessionRun = { shared, ended: ended.signal };
  const scripted = prepared.script === null
    ? null
    : scriptArrival(prepared.script, sessionRun, { ...opts, originMs, feeder });
  const ctx = loadContextOf({
    config,
    shared,
    workerIndex: opts.workerIndex,
    workerCount: opts.workerCount,
    startMs,
    endMs: startMs + spanMs,
    newConnection: prepared.newConnection,
    pool: prepared.pool,
    streamsPerConnection: prepared.factory.perConnection,
    arrival: scripted?.arrival ?? arrivalFor(sessionRun, sessions, config.connection === "per-arrival"),
    steer: new WorkerSteering(config, startMs, spanMs, (endMs) => {
      ctx.endMs = Math.min(ctx.endMs, Math.max(endMs, performance.now()));
      recorder.setLoadEnd(ctx.endMs);
    }),
  });
  const streams = ctx.streamsPerConnection;
  const steer = (change: SteerChange) =>
    ctx.steer.add(change, (total) => connectionsShareOf(total, opts.workerIndex, opts.workerCount, streams));
  // A replayed schedule: every change known from the start, each taking effect at its instant.
  for (const change of config.steering ?? []) steer(change);
  let stopAtMs = Infinity;
  // Responses after the load's end are the drain: counted apart from the rate served over the window.
  recorder.setLoadEnd(ctx.endMs);
  // Out of rows: start no new arrival; those in progress finish (their graceful stop from now).
  if (feeder !== null) {
    feeder.onExhausted = () => {
      ctx.stopRequested = true;
      ctx.steer.interrupt();
      stopAtMs = Math.min(stopAtMs, performance.now());
      recorder.setLoadEnd(stopAtMs);
    };
  }
  const done = (async () => {
    if (config.logFile) shared.log = await RequestLog.open(config.logFile, originMs, 0);
    await waitUntil(startMs);
    const timer = setInterval(() => {
      const nowMs = performance.now();
      watchdog(connections, nowMs);
      if (nowMs > Math.min(ctx.endMs, stopAtMs) + config.gracefulStopMs) {
        countUnfinished(connections, shared, nowMs);
        shared.stopping = true;
        ended.abort();
        for (const c of connections) c.abort();
      }
      const samples = recorder.drain(nowMs, false);
      if (samples.length) opts.onSamples(samples);
    }, Math.min(config.intervalMs, 50));
    try {
      await prepared.model.run(ctx);
    } finally {
      clearInterval(timer);
      countUnfinished(connections, shared, performance.now());
      shared.stopping = true;
      for (const c of connections) c.abort();
      prepared.transport.close();
    }
    // A script's promises rejected in its last turns are reported by the runtime on the next one.
    if (scripted !== null) await scripted.settled();
    const endMs = performance.now();
    opts.onSamples(recorder.drain(endMs, true));
    if (sessions !== null) opts.onFlows?.(sessions.recorder.take());
    if (scripted !== null) opts.onFlows?.(scripted.sessions.recorder.take());
    scripted?.dispose();
    // A failed log costs the log, not the measurements: reported beside them instead of thrown.
    const logError = await (shared.log as RequestLog | null)?.close().then(
      () => undefined,
      (err) => (err as Error).message,
    );
    return {
      activeMs: Math.max(0, Math.min(endMs, ctx.endMs, stopAtMs) - originMs),
      maxConnectsInFlight: shared.connectGate.maxInFlight,
      tlsSession: prepared.transport.tlsInfo(),
      maxStreamsPerConnection: prepared.factory.maxOpenStreams(),
      ...(wsStats !== null ? { ws: wsStats.take() } : {}),
      ...(logError ? { logError } : {}),
      ...(feeder !== null && feeder.exhausted > 0 ? { dataRanOut: true } : {}),
    };
  })().finally(() => prepared.transport.close());
  return {
    done,
    steer,
    stop() {
      if (ctx.stopRequested) return;
      ctx.stopRequested = true;
      ctx.steer.interrupt();
      ended.abort();
      stopAtMs = performance.now();
      recorder.setLoadEnd(stopAtMs);
    },
  };
}

/**
 * Counts the requests still waiting for an answer as the run ends (`unfinished`): the experiment's own
 * stop cut them, so they are shown apart and never count as failures of the target. Once per run: after
 * `stopping` is set, nothing more is counted.
 */
function countUnfinished(connections: LoadConnection[], shared: ConnectionShared, nowMs: number): void {
  if (shared.stopping) return;
  for (const conn of connections) conn.countUnfinished(nowMs);
}

/** Aborts exchanges past their deadline; the failed read is then counted as a timeout. */
function watchdog(connections: LoadConnection[], nowMs: number): void {
  for (const conn of connections) {
    if (conn.deadlineMs < nowMs) {
      conn.timedOut = true;
      conn.abort();
    }
  }
}
