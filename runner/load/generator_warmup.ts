/**
 * @module
 * The generator's own warm-up before t0, never against the target: a short burst of the run's own model,
 * connections, parser and recorder against an in-process loopback sink (a WebSocket run: an echo thread),
 * so V8 runs the hot path optimized from the first real send; flows are not replayed, records are dropped.
 * The parts run and burst share are built here one way, so the burst's code sees the run's object shapes.
 */
import type { AttackConfig } from "../config.ts";
import { type ConnectionShared, connectionShared, type LoadConnection } from "../http/load_connection.ts";
import { PROTOCOLS } from "../http/protocols.ts";
import type { WsConfig } from "../http/ws/config.ts";
import { httpFormOf, wsRunOf } from "../http/ws/run.ts";
import { chooseTransport, type ChosenTransport } from "../http/transport/choice.ts";
import { RequestMix } from "../http/request.ts";
import { IntervalRecorder } from "../stats/recorder.ts";
import { type AnyModelDef, keepsUncorrected, pacingOf } from "./models/mod.ts";
import { endpointTable } from "../endpoint_table.ts";
import { ConnectGate, CONNECTS_IN_FLIGHT_PER_WORKER } from "../http/transport/connect_gate.ts";
import { closeAll, exchangeArrival, type LoadContext } from "./executor.ts";
import { type Sink, startSink, startWsSink } from "./warmup_sink.ts";
import { WorkerSteering } from "./steer.ts";

const GENERATOR_WARMUP_MS = 200;
/** A WebSocket run's burst (ms): its exchange takes more calls to optimize, and the echo is slower. */
const WS_GENERATOR_WARMUP_MS = 400;
/** A ws run's short first burst (ms), so the paths its cut exchanges run are optimized before t0 too. */
const WS_FIRST_BURST_MS = 100;
/** Sending rate of the burst in the open models (req/s): enough calls for V8 to optimize. */
const WARMUP_RATE_PER_SEC = 8_000;
/** Fewer sends optimize nothing: an HTTP count run of fewer (its burst sends its count) starts cold. */
const MIN_BURST_SENDS = 100;
/** Connections of the burst in the closed and throughput models. */
const WARMUP_CONNECTIONS = 4;
/** A WebSocket burst's most connections: it takes the run's own count up to this (a pump's full rounds). */
const WS_WARMUP_MAX_CONNECTIONS = 64;

interface WarmupOptions {
  /** A ws: or wss: run's WebSocket settings; null for HTTP. */
  ws: WsConfig | null;
  /** The WebSocket echo the pool started for every worker; without it the warm-up starts its own. */
  sinkUrl?: string;
}

/** Runs the burst with the run's `model`; never throws (a failed warm-up leaves the generator cold). */
export async function warmUpGenerator(
  config: AttackConfig,
  model: AnyModelDef,
  options: WarmupOptions = { ws: null },
) {
  const beganMs = performance.now();
  // A hold run only pings idle connections: there is no hot path to warm.
  if (options.ws !== null && options.ws.pingIntervalMs > 0) return { durationMs: 0, answered: 0 };
  const fewSends = options.ws === null && config.model === "count" && config.requests < MIN_BURST_SENDS;
  if (fewSends) return { durationMs: 0, answered: 0 };
  let sink: Sink;
  try {
    sink = options.ws === null
      ? startSink(isH2(config))
      : options.sinkUrl !== undefined
      ? { url: options.sinkUrl, close() {} } // the pool's: it closes it
      : await startWsSink();
  } catch {
    // No loopback socket or isolate for the sink (a sandbox): the run starts cold.
    return { durationMs: 0, answered: 0 };
  }
  let answered = 0;
  try {
    if (options.ws !== null) answered += await runBurst(config, model, options, sink.url, WS_FIRST_BURST_MS);
    const durationMs = options.ws === null ? GENERATOR_WARMUP_MS : WS_GENERATOR_WARMUP_MS;
    answered += await runBurst(config, model, options, sink.url, durationMs);
  } catch {
    // A cold generator is the worst outcome; the run itself still goes ahead.
  } finally {
    sink.close();
  }
  return { durationMs: performance.now() - beganMs, answered };
}

async function runBurst(
  config: AttackConfig,
  model: AnyModelDef,
  options: WarmupOptions,
  sinkUrl: string,
  durationMs: number,
): Promise<number> {
  // The run's own recorder and origin, so the burst is optimized for the run's object shapes.
  const recorder = recorderOf(config);
  recorder.setOrigin(performance.now());
  const link =
    await (options.ws === null
      ? httpLink(config, recorder, sinkUrl)
      : wsLink(config, options.ws, recorder, sinkUrl));
  const shared = link.shared;
  const connections: LoadConnection[] = [];
  const ended = new AbortController();
  const burstCfg = burstConfig(config, model, sinkUrl, options.ws, durationMs);
  const ctx = burstContext(burstCfg, link, durationMs, connections);
  recorder.setLoadEnd(ctx.endMs);
  // Draining exercises the interval encoding too; at the burst's end a backlog is dropped, exchanges cut.
  let answered = 0;
  const drain = (final: boolean) => {
    for (const sample of recorder.drain(performance.now(), final)) answered += sample.requests;
  };
  const timer = setInterval(() => {
    drain(false);
    if (performance.now() > ctx.endMs) closeAll(shared, connections, ended);
  }, 25);
  try {
    await model.run(ctx);
  } finally {
    clearInterval(timer);
    closeAll(shared, connections, ended);
    link.chosen.close();
    drain(true);
  }
  return answered;
}

/** The burst's load context: one worker, from 1 ms from now, its connections kept for the end to cut. */
function burstContext(
  burstCfg: AttackConfig,
  { shared, factory }: BurstLink,
  durationMs: number,
  connections: LoadConnection[],
): LoadContext<AttackConfig> {
  const startMs = performance.now() + 1;
  return loadContextOf({
    config: burstCfg,
    shared,
    workerIndex: 0,
    workerCount: 1,
    startMs,
    endMs: startMs + durationMs,
    newConnection: () => {
      const conn = factory.next(connections.length);
      connections.push(conn);
      return conn;
    },
    pool: [],
    streamsPerConnection: factory.perConnection,
    arrival: factory.h2Steps ? null : exchangeArrival(burstCfg.connection === "per-arrival"),
    // Never steered: the burst is the generator's own.
    steer: new WorkerSteering(burstCfg, startMs, durationMs, () => {}),
  });
}

/** The run's config pointed at the sink, short, single requests, no log, no warm-up of its own. */
function burstConfig(
  config: AttackConfig,
  model: AnyModelDef,
  url: string,
  ws: WsConfig | null,
  durationMs: number,
): AttackConfig {
  const common = {
    url,
    requestMix: BURST_MIX,
    ws: ws === null ? config.ws : burstWsOf(ws),
    flows: undefined,
    warmupMs: 0,
    logFile: undefined,
    timeoutMs: 1_000,
    workers: 1,
  };
  const burst = {
    durationMs,
    connections: ws === null ? WARMUP_CONNECTIONS : wsConnectionsOf(config),
    ratePerSec: WARMUP_RATE_PER_SEC,
  };
  return { ...config, ...common, ...model.warmupFields(config, burst) };
}

/** A WebSocket burst's connections: the worker's share, bounded, so pump rounds batch as the run's will. */
function wsConnectionsOf(config: AttackConfig): number {
  const connections = "connections" in config && typeof config.connections === "number"
    ? config.connections
    : WARMUP_CONNECTIONS;
  return Math.min(WS_WARMUP_MAX_CONNECTIONS, Math.max(1, Math.ceil(connections / config.workers)));
}

/** The burst's one request (HTTP), or the path of its WebSocket upgrade. */
const BURST_MIX = [{ method: "GET", path: "/", headers: [], weight: 1 }];

type BurstLink = Awaited<ReturnType<typeof httpLink>>;

/** An HTTP/2 run (h2, h2c): its burst warms the HTTP/2 code over h2c. */
function isH2(config: AttackConfig): boolean {
  return config.protocol === "h2" || config.protocol === "h2c";
}

type SharedFields = Omit<
  ConnectionShared,
  "transport" | "connectBy" | "maxHeaderBytes" | "connectGate" | "log" | "stopping"
>;

/** The connections' shared state, the run's and the burst's: they differ in `fields` (target or sink). */
export function sharedOf(config: AttackConfig, chosen: ChosenTransport, fields: SharedFields) {
  return connectionShared({
    ...fields,
    transport: chosen.transport,
    connectBy: chosen.connectBy,
    maxHeaderBytes: config.maxHeaderBytes,
    connectGate: connectGateOf(config),
    log: null,
    stopping: false,
  });
}

function burstSharedOf(url: URL, chosen: ChosenTransport, recorder: IntervalRecorder, config: AttackConfig) {
  const sink = { hostname: "127.0.0.1", port: Number(url.port), mix: new RequestMix(url, BURST_MIX, 0) };
  return sharedOf(config, chosen, { ...sink, recorder, timeoutMs: 1_000 });
}

async function httpLink(config: AttackConfig, recorder: IntervalRecorder, sinkUrl: string) {
  const url = new URL(sinkUrl);
  // The run's transport, so the burst warms the code the run will use (epoll: its pump and sockets).
  // Its pump must not block: the sink answers on this thread.
  const chosen = chooseTransport(url, config.transport);
  const shared = burstSharedOf(url, chosen, recorder, config);
  // `auto` is settled only by the target's ALPN answer, so it warms HTTP/1.1; h2 per arrival runs the
  // same frames, HPACK and session code as kept-alive h2.
  const factory = await PROTOCOLS[isH2(config) ? "h2c" : "http1"]({
    ...setupOf(config, shared, url),
    perArrival: false,
  });
  return { chosen, factory, shared };
}

/** WebSocket to the echo thread over the run's transport, pump, messages and matching (no TLS). */
async function wsLink(
  config: AttackConfig,
  ws: WsConfig,
  recorder: IntervalRecorder,
  sinkUrl: string,
): Promise<BurstLink> {
  const wsUrl = new URL(sinkUrl);
  const url = httpFormOf(wsUrl);
  // As the run chooses (run_load.ts): a burst never pings, so auto prefers io_uring as the run does.
  const chosen = chooseTransport(url, config.transport, {
    closedModel: isClosedModel(config),
    preferUring: true,
  });
  const shared = burstSharedOf(url, chosen, recorder, config);
  // Counted from the start, as the run's are from t0: the counting branches run in the burst too.
  const run = wsRunOf(wsUrl, burstWsOf(ws));
  run.stats.originMs = performance.now();
  recorder.countWs(run.stats);
  const factory = await PROTOCOLS.ws({
    ...setupOf(config, shared, url),
    perArrival: config.connection === "per-arrival",
    ws: run,
  });
  return { chosen, factory, shared };
}

/** The run's ws settings echoed without waits, its own objects kept so V8 sees the maps it sees after t0. */
function burstWsOf(ws: WsConfig): WsConfig {
  return {
    ...ws,
    match: ws.match.kind === "echo" ? ws.match : { kind: "echo" },
    protocols: ws.protocols.length === 0 ? ws.protocols : [],
    headers: Object.keys(ws.headers).length === 0 ? ws.headers : {},
    deflate: false,
    thinkAfterMs: ws.thinkAfterMs.length === 0 ? ws.thinkAfterMs : [],
  };
}

/** The protocol setup of the burst's connections: its one request, the run's streams and pipelining kept. */
function setupOf(config: AttackConfig, shared: ConnectionShared, url: URL) {
  return { shared, url, config: { ...config, requestMix: BURST_MIX, grpc: undefined }, idBase: 0 };
}

/** The run's recorder, counting nothing until `setOrigin` (at t0 for the run, at its start for the burst). */
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

/** A model's context but its stop flag (which starts false). */
export type ContextFields = Omit<LoadContext<AttackConfig>, "stopRequested">;

/** The model's context, its fields always in this order: the run's and the burst's share one map. */
export function loadContextOf(f: ContextFields): LoadContext<AttackConfig> {
  return {
    config: f.config,
    shared: f.shared,
    workerIndex: f.workerIndex,
    workerCount: f.workerCount,
    startMs: f.startMs,
    endMs: f.endMs,
    stopRequested: false,
    newConnection: f.newConnection,
    pool: f.pool,
    streamsPerConnection: f.streamsPerConnection,
    concurrency: f.concurrency,
    arrival: f.arrival,
    steer: f.steer,
  };
}

/** Connects in flight at once: bounded for open models, free for closed ones (connect_gate.ts). */
export function connectGateOf(config: AttackConfig): ConnectGate {
  return new ConnectGate(isClosedModel(config) ? Infinity : CONNECTS_IN_FLIGHT_PER_WORKER);
}

/** Connections that send again as soon as they are answered (no schedule, no pacer). */
export function isClosedModel(config: AttackConfig): boolean {
  return pacingOf(config) === "closed";
}
