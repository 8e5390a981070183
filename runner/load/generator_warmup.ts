/**
 * @module
 * The generator's own warm-up, before t0 and never against the target: a short burst (at most
 * `GENERATOR_WARMUP_MS` of sending) of the run's own load model, connections, parser and recorder
 * against an in-process loopback sink (warmup_sink.ts) that answers every request with a canned 200, over
 * HTTP/1.1 or, for an HTTP/2 run, over h2c with the run's streams per connection. V8 then runs the
 * hot path as optimized code from the first real send, so a cold JIT cannot make the first
 * milliseconds late (and, in the open model, open a connection per late send). What the burst records
 * is thrown away. The burst sends `GET /` with the run's pipelining and connection mode; flows are
 * not replayed (their think times would make the burst idle), their requests share the same path.
 */
import type { AttackConfig } from "../config.ts";
import { type ConnectionShared, connectionShared, type LoadConnection } from "../http/load_connection.ts";
import { PROTOCOLS } from "../http/protocols.ts";
import { chooseTransport } from "../http/transport/choice.ts";
import { ConnectGate } from "../http/transport/connect_gate.ts";
import { RequestMix } from "../http/request.ts";
import { IntervalRecorder } from "../stats/recorder.ts";
import type { LoadContext } from "./executor.ts";
import type { AnyModelDef } from "./models/mod.ts";
import { arrivalFor } from "./flow_session.ts";
import { type Sink, startSink } from "./warmup_sink.ts";
import { WorkerSteering } from "./steer.ts";

/** Longest the burst sends for. */
export const GENERATOR_WARMUP_MS = 200;
/** Sending rate of the burst in the open models (req/s): enough calls for V8 to optimize. */
const WARMUP_RATE_PER_SEC = 8_000;
/** Connections of the burst in the closed and throughput models. */
const WARMUP_CONNECTIONS = 4;

/**
 * Runs the burst with `model` (the run's own) and resolves with the time it took in ms. Never
 * throws: a warm-up that fails leaves the generator cold, nothing more.
 */
export async function warmUpGenerator(config: AttackConfig, model: AnyModelDef): Promise<number> {
  const beganMs = performance.now();
  // An h2 run warms its HTTP/2 code (frames, HPACK, sessions) against an h2c sink; `auto` is settled
  // only by the target's ALPN answer, so it warms HTTP/1.1 as before.
  const h2 = config.protocol === "h2" || config.protocol === "h2c";
  let sink: Sink;
  try {
    sink = startSink(h2);
  } catch {
    return 0; // no loopback socket for the sink (a sandbox): the run starts cold, as before
  }
  const url = new URL(sink.url);
  // The run's transport, so the burst warms the code the run will use (epoll: its pump and sockets).
  const chosen = chooseTransport(url, config.transport);
  const recorder = new IntervalRecorder({
    intervalMs: config.intervalMs,
    originMs: beganMs,
    uncorrected: true,
  });
  const burstMix = [{ method: "GET", path: "/", headers: [], weight: 1 }];
  const shared = connectionShared({
    hostname: "127.0.0.1",
    port: Number(url.port),
    transport: chosen.transport,
    recorder,
    mix: new RequestMix(url, burstMix, 0),
    timeoutMs: 1_000,
    maxHeaderBytes: config.maxHeaderBytes,
    connectGate: new ConnectGate(16),
    log: null,
    stopping: false,
  });
  const connections: LoadConnection[] = [];
  // h2 per arrival warms the kept-alive h2 path: the same frames, HPACK and session code.
  const factory = PROTOCOLS[h2 ? "h2c" : "http1"]({
    shared,
    url,
    requests: burstMix,
    pipelining: config.pipelining,
    streams: config.streams,
    perArrival: false,
    windowBytes: config.h2WindowBytes,
    idBase: 0,
  });
  const ended = new AbortController();
  const startMs = performance.now() + 1;
  const burst = burstConfig(config, model, sink.url);
  const ctx: LoadContext<AttackConfig> = {
    config: burst,
    shared,
    workerIndex: 0,
    workerCount: 1,
    startMs,
    endMs: startMs + GENERATOR_WARMUP_MS,
    stopRequested: false,
    pool: [],
    streamsPerConnection: factory.perConnection,
    newConnection() {
      const id = connections.length;
      const conn = factory.next(id);
      connections.push(conn);
      return conn;
    },
    arrival: h2
      ? null
      : arrivalFor({ shared, ended: ended.signal }, null, config.connection === "per-arrival"),
    // Never steered: the burst is the generator's own.
    steer: new WorkerSteering(burst, startMs, GENERATOR_WARMUP_MS, () => {}),
  };
  // Draining also exercises the interval encoding; at the end of the burst a backlog (a busy
  // machine) is dropped and in-flight exchanges cut, so the whole warm-up stays near 250 ms.
  const timer = setInterval(() => {
    recorder.drain(performance.now(), false);
    if (performance.now() > ctx.endMs) stopAll(shared, connections, ended);
  }, 25);
  try {
    await model.run(ctx);
  } catch {
    // A cold generator is the worst outcome; the run itself still goes ahead.
  } finally {
    clearInterval(timer);
    stopAll(shared, connections, ended);
    chosen.close();
    sink.close();
  }
  return performance.now() - beganMs;
}

function stopAll(shared: ConnectionShared, connections: LoadConnection[], ended: AbortController): void {
  shared.stopping = true;
  ended.abort();
  for (const c of connections) c.abort();
}

/** The run's config pointed at the sink, short, single requests, no log, no warm-up of its own. */
function burstConfig(config: AttackConfig, model: AnyModelDef, url: string): AttackConfig {
  const common = {
    url,
    requestMix: [{ method: "GET", path: "/", headers: [], weight: 1 }],
    flows: undefined,
    warmupMs: 0,
    logFile: undefined,
    timeoutMs: 1_000,
    workers: 1,
  };
  const burst = {
    durationMs: GENERATOR_WARMUP_MS,
    connections: WARMUP_CONNECTIONS,
    ratePerSec: WARMUP_RATE_PER_SEC,
  };
  return { ...config, ...common, ...model.warmupFields(config, burst) };
}
