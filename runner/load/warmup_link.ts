/**
 * @module
 * How the generator's warm-up burst reaches its sink (HTTP/1.1 or h2c in-thread, WebSocket on an echo
 * thread), always through the run's own transport, with the run's own objects kept where they fit, so the
 * optimized code sees the maps it will see after t0.
 */
import type { AttackConfig } from "../config.ts";
import { type ConnectionShared, connectionShared } from "../http/load_connection.ts";
import { type ConnectionFactory, PROTOCOLS } from "../http/protocols.ts";
import type { WsConfig } from "../http/ws/config.ts";
import { httpFormOf, wsRunOf } from "../http/ws/run.ts";
import { chooseTransport, type ChosenTransport } from "../http/transport/choice.ts";
import { RequestMix } from "../http/request.ts";
import type { IntervalRecorder } from "../stats/recorder.ts";
import { connectGateOf } from "./run_parts.ts";

/** The burst's one request (HTTP), or the path of its WebSocket upgrade. */
export const BURST_MIX = [{ method: "GET", path: "/", headers: [], weight: 1 }];

/** The burst's transport to the sink and the protocol's connections on it. */
export interface BurstLink {
  chosen: ChosenTransport;
  factory: ConnectionFactory;
  shared: ConnectionShared;
}

/** An HTTP/2 run (h2, h2c): its burst warms the HTTP/2 code over h2c. */
export function isH2(config: AttackConfig): boolean {
  return config.protocol === "h2" || config.protocol === "h2c";
}

/** The shared parts of the burst's connections to the sink at `url`. */
function sharedOf(url: URL, chosen: ChosenTransport, recorder: IntervalRecorder, config: AttackConfig) {
  return connectionShared({
    hostname: "127.0.0.1",
    port: Number(url.port),
    transport: chosen.transport,
    connectBy: chosen.connectBy,
    recorder,
    mix: new RequestMix(url, BURST_MIX, 0),
    timeoutMs: 1_000,
    maxHeaderBytes: config.maxHeaderBytes,
    connectGate: connectGateOf(config),
    log: null,
    stopping: false,
  });
}

/** HTTP/1.1 or h2c against the in-thread sink (warmup_sink.ts). */
export function httpLink(config: AttackConfig, recorder: IntervalRecorder, sinkUrl: string): BurstLink {
  const url = new URL(sinkUrl);
  // The run's transport, so the burst warms its code; its pump must not block (the sink is on this thread).
  const chosen = chooseTransport(url, config.transport);
  const shared = sharedOf(url, chosen, recorder, config);
  // An h2 run (per arrival too) warms HTTP/2 against an h2c sink; `auto` waits for ALPN, so warms HTTP/1.1.
  const factory = PROTOCOLS[isH2(config) ? "h2c" : "http1"]({
    ...setupOf(config, shared, url),
    perArrival: false,
  });
  return { chosen, factory, shared };
}

/** WebSocket against the echo thread over the run's transport, pump, messages and matching (short of TLS). */
export function wsLink(
  config: AttackConfig,
  ws: WsConfig,
  closedModel: boolean,
  recorder: IntervalRecorder,
  sinkUrl: string,
): BurstLink {
  const wsUrl = new URL(sinkUrl);
  const url = httpFormOf(wsUrl);
  // As the run chooses (run_load.ts): a burst never pings, so auto prefers io_uring as the run does.
  const chosen = chooseTransport(url, config.transport, { closedModel, preferUring: true });
  const shared = sharedOf(url, chosen, recorder, config);
  // Counted from the start, as the run's are from t0: the counting branches run in the burst too.
  const run = wsRunOf(wsUrl, burstWsOf(ws));
  run.stats.originMs = performance.now();
  recorder.countWs(run.stats);
  const factory = PROTOCOLS.ws({
    ...setupOf(config, shared, url),
    perArrival: config.connection === "per-arrival",
    ws: run,
  });
  return { chosen, factory, shared };
}

/** The burst's WebSocket settings: the run's messages echoed, the run's own objects kept where they fit. */
export function burstWsOf(ws: WsConfig): WsConfig {
  return {
    ...ws,
    match: ws.match.kind === "echo" ? ws.match : { kind: "echo" },
    protocols: ws.protocols.length === 0 ? ws.protocols : [],
    headers: Object.keys(ws.headers).length === 0 ? ws.headers : {},
    deflate: false,
    thinkAfterMs: ws.thinkAfterMs.length === 0 ? ws.thinkAfterMs : [],
  };
}

/** The protocol setup of the burst's connections, the run's streams and pipelining kept. */
function setupOf(config: AttackConfig, shared: ConnectionShared, url: URL) {
  return {
    shared,
    url,
    requests: BURST_MIX,
    pipelining: config.pipelining,
    streams: config.streams,
    windowBytes: config.h2WindowBytes,
    idBase: 0,
  };
}
