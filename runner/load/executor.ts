/**
 * @module
 * The context a worker gives a load model's run (models/model.ts holds the model's record). A run only
 * decides *when* each request starts and on which connection; connections, recording, the watchdog
 * and the graceful stop belong to the worker runtime (`run_load.ts` before t0, `run_prepared.ts` from
 * it), so every model shares them.
 */
import type { ConnectionShared, LoadConnection } from "../http/load_connection.ts";
import type { WorkerSteering } from "./steer.ts";

/**
 * The fields of every model's config that model rules and the shared runtime (pacer, lanes, closed
 * loops) read; runner/config.ts checks that its `AttackConfig` has them.
 */
export interface CommonConfig {
  readonly warmupMs: number;
  readonly lateBoundMs: number;
  readonly pipelining: number;
  readonly connection: "keep-alive" | "per-arrival";
  readonly workers: number;
  readonly protocol: "http1" | "h2" | "h2c" | "h3" | "auto";
  readonly segment?: { readonly index: number; readonly count: number };
  readonly flows?: readonly unknown[];
}

/**
 * What a worker hands to its model's run (`C`: that model's config). Times are this isolate's
 * `performance.now()` ms.
 */
export interface LoadContext<C extends CommonConfig = CommonConfig> {
  readonly config: C;
  readonly shared: ConnectionShared;
  readonly workerIndex: number;
  readonly workerCount: number;
  /** When the load starts (warm-up included). */
  readonly startMs: number;
  /**
   * After this no request is started (Infinity when only a count bounds the run); a steering change that
   * ends the load (the last phase ended, a stop) moves it earlier.
   */
  endMs: number;
  /** Set on a stop request (Ctrl-C or a caller's abort): start nothing new. */
  stopRequested: boolean;
  /** Opens nothing yet: creates a connection registered with the watchdog. */
  newConnection(): LoadConnection;
  /**
   * Connections opened before t0 (pre-connect, open models): the executor takes them as its first
   * idle connections. Empty for the closed models and with `--pre-connect 0`.
   */
  readonly pool: readonly LoadConnection[];
  /**
   * What `newConnection` gives per connection: 1 over HTTP/1.1; over HTTP/2 each is one stream, and
   * `streams` of them share a connection, so the executors ask for connections x streams.
   */
  readonly streamsPerConnection: number;
  /**
   * HTTP/2: the streams in flight over the fixed connections when not `streams` on each (config
   * `concurrency`).
   */
  readonly concurrency?: number;
  /**
   * What one arrival does, chosen once per run (flow_session.ts): null is one request on a kept-alive
   * connection, the executors' fast path; otherwise a session of a flow and/or a connection per arrival.
   */
  readonly arrival: Arrival | null;
  /** Changes made to the running load (steer.ts): the open schedule and the closed loops follow them. */
  readonly steer: WorkerSteering;
}

/**
 * One arrival's work on a connection from `intendedMs` (negative: now); resolves with responses received.
 * `next` (a closed loop's `take`, granting arrivals): the arrival may start the connection's next ones
 * itself as each ends, while `next(1, nowMs)` grants them, with no promise per arrival; it resolves with
 * the last one's responses once `next` grants none (or one got no response: the loop then backs off).
 * An arrival that ignores `next` is one arrival.
 */
export type Arrival = (
  conn: LoadConnection,
  intendedMs: number,
  next?: ((depth: number, nowMs: number) => number) | null,
) => Promise<number>;

/** True while the executor may start another request (`nowMs`: a recent `performance.now()`). */
export function mayStart(ctx: LoadContext, nowMs: number): boolean {
  return !ctx.stopRequested && nowMs < ctx.endMs;
}

/** A send that leaves this much later than intended was held up by the generator; it is counted. */
export const LATE_SEND_MS = 5;
