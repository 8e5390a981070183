/**
 * @module
 * The generator's warm-up before t0, never against the target: a burst of the run's own load at an in-process
 * sink (ws: an echo thread), so V8 runs the hot path optimized from the first send; no flows, no records.
 */
import type { AttackConfig } from "../config.ts";
import type { WsConfig } from "../http/ws/config.ts";
import { modelDef } from "./models/mod.ts";
import { type Sink, startSink, startWsSink } from "./warmup_sink.ts";

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

export interface WarmupOptions {
  /** A ws: or wss: run's WebSocket settings; null for HTTP. */
  ws: WsConfig | null;
  /** The WebSocket echo the pool started for every worker; without it the warm-up starts its own. */
  sinkUrl?: string;
}

/** The bursts' lengths (ms) and their sink, or null when the run has no hot path to warm or no sink. */
export async function burstsOf(
  config: AttackConfig,
  options: WarmupOptions,
): Promise<{ sink: Sink; burstsMs: number[] } | null> {
  // A hold run only pings idle connections: there is no hot path to warm.
  if (options.ws !== null && options.ws.pingIntervalMs > 0) return null;
  const fewSends = options.ws === null && config.model === "count" && config.requests < MIN_BURST_SENDS;
  if (fewSends) return null;
  try {
    if (options.ws === null) return { sink: startSink(isH2(config)), burstsMs: [GENERATOR_WARMUP_MS] };
    const sink = options.sinkUrl !== undefined
      ? { url: options.sinkUrl, close() {} } // the pool's: it closes it
      : await startWsSink();
    return { sink, burstsMs: [WS_FIRST_BURST_MS, WS_GENERATOR_WARMUP_MS] };
  } catch {
    // No loopback socket or isolate for the sink (a sandbox): the run starts cold.
    return null;
  }
}

/**
 * The run's config pointed at the sink: short single requests over HTTP/1.1 or h2c (`auto` warms HTTP/1.1),
 * no log, data, script, steering, TLS or warm-up of its own, one worker, cut at its end.
 */
export function burstConfig(
  config: AttackConfig,
  url: string,
  ws: WsConfig | null,
  durationMs: number,
): AttackConfig {
  const common = {
    url,
    requestMix: BURST_MIX,
    ws: ws === null ? config.ws : burstWsOf(ws),
    protocol: isH2(config) ? "h2c" as const : "http1" as const,
    flows: undefined,
    script: undefined,
    data: undefined,
    grpc: undefined,
    tls: undefined,
    steering: undefined,
    segment: undefined,
    concurrency: undefined,
    sourceAddresses: undefined,
    connectTimeoutMs: undefined,
    generatorWarmup: false,
    warmupMs: 0,
    gracefulStopMs: 0,
    logFile: undefined,
    timeoutMs: 1_000,
    workers: 1,
  };
  const burst = {
    durationMs,
    connections: ws === null ? WARMUP_CONNECTIONS : wsConnectionsOf(config),
    ratePerSec: WARMUP_RATE_PER_SEC,
  };
  return { ...config, ...common, ...modelDef(config.model).warmupFields(config, burst) };
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

/** An HTTP/2 run (h2, h2c): its burst warms the HTTP/2 code over h2c. */
function isH2(config: AttackConfig): boolean {
  return config.protocol === "h2" || config.protocol === "h2c";
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
