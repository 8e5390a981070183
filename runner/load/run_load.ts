/**
 * @module
 * A worker's load made ready before t0, so no start-up cost falls after it; `start` runs it.
 */
import { httpFormOf, type WsRun, wsRunOf } from "../http/ws/run.ts";
import type { LoadConnection } from "../http/load_connection.ts";
import { alpnOf, probeProtocol, protocolRowOf, PROTOCOLS } from "../http/protocols.ts";
import { dialTarget } from "../http/transport/transport.ts";
import { connectToOf } from "../http/tls/material.ts";
import { chooseTransport } from "../http/transport/choice.ts";
import { RequestMix } from "../http/request.ts";
import { modelDef, poolSizeOf } from "./models/mod.ts";
import { shareOf, stripeOf } from "./schedule.ts";
import { preConnect } from "./pre_connect.ts";
import type { PoolSize } from "./models/model.ts";
import { isClosedModel, recorderOf, sharedOf, warmUpGenerator } from "./generator_warmup.ts";
import { Feeder } from "./feeder.ts";
import { endpointTable } from "../endpoint_table.ts";
import { runPrepared, watchdog } from "./run_prepared.ts";
import type { LoadRunOptions, PreparedLoad } from "./load_run_types.ts";

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
  // Flows' sessions (steps, cookies, captures, ws steps) are imported for a load that has them.
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
    ? (await warmUpGenerator(config, model, { ws, sinkUrl: opts.warmupSinkUrl })).durationMs
    : 0;
  const link = await linkOf(opts, wsUrl, wsRun);
  const { chosen } = link;
  let pool;
  try {
    pool = await openPool(opts, link);
  } catch (err) {
    chosen.close();
    throw err;
  }
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
      runPrepared(opts, {
        ...link,
        model,
        pool: pool.connections,
        transport: chosen,
        wsRun,
        script,
        grpcSteps,
        flowSessionsOf,
      }, startMs),
  };
}

type Link = Awaited<ReturnType<typeof linkOf>>;

/**
 * Chooses the transport (closed when the run ends, on every exit path), settles the protocol (ALPN), and
 * builds the shared state, the connection factory and the worker's feeder of data rows.
 */
async function linkOf(opts: LoadRunOptions, wsUrl: URL, wsRun: WsRun | null) {
  const { config } = opts;
  const url = httpFormOf(wsUrl);
  const { hostname, port } = dialTarget(url, connectToOf(config.tls));
  const offer = alpnOf(url, wsRun !== null ? "http1" : config.protocol);
  // HTTP/3 dials Deno's QUIC itself: the TCP transport is Deno's, never dialed.
  const chosen = chooseTransport(url, config.protocol === "h3" ? "deno" : config.transport, {
    closedModel: isClosedModel(config),
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
    // The origin is set at start: until then (pre-connect) the recorder counts nothing.
    const recorder = recorderOf(config);
    if (opts.heartbeat !== undefined) recorder.markProgressIn(new Float64Array(opts.heartbeat));
    const shared = sharedOf(config, chosen, {
      hostname,
      port,
      recorder,
      mix: new RequestMix(url, config.requestMix, opts.workerIndex * 7919, config.data?.columns, endpoints),
      rows: config.flows === undefined && config.script === undefined ? feeder : null,
      timeoutMs: config.timeoutMs,
      connectTimeoutMs: config.connectTimeoutMs,
      connectsBesideTraffic: chosen.kind !== "deno",
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
      perArrival: config.connection === "per-arrival",
      idBase,
      ws: wsRun ?? undefined,
    });
    const newConnection = () => {
      const conn = factory.next(idBase + connections.length);
      connections.push(conn);
      return conn;
    };
    return { chosen, protocol, shared, factory, feeder, connections, newConnection };
  } catch (err) {
    chosen.close();
    throw err;
  }
}

/** Opens the pre-connect pool; the watchdog already runs, so a connect hangs no longer than the timeout. */
async function openPool(opts: LoadRunOptions, link: Link) {
  const { config } = opts;
  const watch = setInterval(() => watchdog(link.connections, performance.now()), 50);
  try {
    const size = poolSizeOf(config, opts.workerIndex, opts.workerCount);
    return await preConnect(inStreams(size, link.factory.perConnection), link.newConnection);
  } finally {
    clearInterval(watch);
  }
}

/** A pool size in connections as one in HTTP/2 stream slots (`streams` of them to a connection). */
function inStreams(size: PoolSize, streams: number): PoolSize {
  if (size === null || streams === 1) return size;
  return "count" in size ? { count: size.count * streams } : { ...size, max: size.max * streams };
}
