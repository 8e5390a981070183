/**
 * @module
 * What a worker gives a model's run: the run picks when and on which connection requests start.
 */
import type { ConnectionShared, LoadConnection } from "../http/load_connection.ts";
import type { WorkerSteering } from "./steer.ts";

/** The config fields that model rules and the shared runtime read; runner/config.ts checks it has them. */
export interface CommonConfig {
  readonly warmupMs: number;
  readonly lateBoundMs: number;
  readonly whenBusy: "wait" | "drop" | "skip";
  readonly pipelining: number;
  readonly connection: "keep-alive" | "per-arrival";
  readonly workers: number;
  /** The calls in flight from each `atMs` of the measured run on (ghz's concurrency schedule). */
  readonly concurrencySteps?: ReadonlyArray<{ readonly atMs: number; readonly concurrency: number }>;
  /** Beside `concurrencySteps`, each call waits for its tick, `1 / rate` apart in its phase (ghz's pacer). */
  readonly tickPhases?: ReadonlyArray<readonly [durationMs: number, ratePerSec: number]>;
  readonly protocol: "http1" | "h2" | "h2c" | "h3" | "auto";
  readonly segment?: { readonly index: number; readonly count: number };
  readonly flows?: readonly unknown[];
}

/** What a worker hands to its model's run (`C`: that model's config); times are `performance.now()` ms. */
export interface LoadContext<C extends CommonConfig = CommonConfig> {
  readonly config: C;
  readonly shared: ConnectionShared;
  readonly workerIndex: number;
  readonly workerCount: number;
  /** When the load starts (warm-up included). */
  readonly startMs: number;
  /** After this no request starts (Infinity: only a count bounds the run); steering may move it earlier. */
  endMs: number;
  /** Set on a stop request (Ctrl-C or a caller's abort): start nothing new. */
  stopRequested: boolean;
  /** Opens nothing yet: creates a connection registered with the watchdog. */
  newConnection(): LoadConnection;
  /** Connections opened before t0 (open models' pre-connect), taken as the first idle ones. */
  readonly pool: readonly LoadConnection[];
  /** Load connections per real connection: 1 over HTTP/1.1, `streams` over HTTP/2. */
  readonly streamsPerConnection: number;
  /** HTTP/2 `concurrency`: the streams in flight over the fixed connections, if not `streams` each. */
  readonly concurrency?: number;
  /** What one arrival does (flow_session.ts); null: one request on a kept-alive connection. */
  readonly arrival: Arrival | null;
  /** Changes made to the running load (steer.ts): the open schedule and the closed loops follow them. */
  readonly steer: WorkerSteering;
}

/**
 * One arrival's work on a connection from `intendedMs` (negative: now); resolves with responses received.
 * `next` (a closed loop's grant) chains its next arrivals, no promise each; `cut` ends its sessions early.
 */
export type Arrival = (
  conn: LoadConnection,
  intendedMs: number,
  next?: ((depth: number, nowMs: number) => number) | null,
  cut?: AbortSignal,
) => Promise<number>;

/** A load without sessions: one exchange on a connection of its own per arrival, else none (null). */
export function exchangeArrival(perArrival: boolean): Arrival | null {
  if (!perArrival) return null;
  return async (conn, intendedMs) => {
    const got = await conn.exchange(intendedMs, 1);
    conn.release();
    return got;
  };
}

/** True while the executor may start another request (`nowMs`: a recent `performance.now()`). */
export function mayStart(ctx: LoadContext, nowMs: number): boolean {
  return !ctx.stopRequested && nowMs < ctx.endMs;
}

/** A run's or a burst's end: failures no longer count, and every connection closes, timed out or not. */
export function closeAll(shared: ConnectionShared, all: Iterable<LoadConnection>, ended?: AbortController) {
  shared.stopping = true;
  ended?.abort();
  // Each close marks the heartbeat: closing thousands on a busy core is progress, not a stuck loop.
  for (const conn of all) (conn.timedOut = false), conn.abort(), shared.recorder.progressed();
}

/** A send that leaves this much later than intended was held up by the generator; it is counted. */
export const LATE_SEND_MS = 5;
