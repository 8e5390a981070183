/**
 * @module
 * `connections` — the closed model (autocannon / oha `-c`): this worker's share of the connections
 * each sends the next request as soon as the previous response has ended, until the end of the run.
 * The intended send time is the actual one, so latency here is service time as seen by one user.
 * With flows each connection runs sessions back to back.
 */
import { configOf } from "../config.ts";
import { type Executor, type LoadContext, mayStart } from "./executor.ts";
import { shareOf } from "./schedule.ts";
import { sleepMs } from "./clock.ts";
import type { LoadConnection } from "../http/load_connection.ts";

/** Pause after a failed connect so a down target costs a count, not a spinning core. */
const CONNECT_BACKOFF_MS = 10;

/**
 * Runs one connection closed-loop while `take(depth, nowMs)` grants requests; shared with `count`.
 * `nowMs` is when the previous exchange ended, so the loop costs no extra clock read per request.
 */
export async function closedLoop(
  ctx: LoadContext,
  conn: LoadConnection,
  take: (depth: number, nowMs: number) => number,
): Promise<void> {
  const depth = ctx.config.pipelining;
  conn.lastEventMs = performance.now();
  while (true) {
    const granted = take(depth, conn.lastEventMs);
    if (granted === 0) return;
    // `take` lets an inline transport (epoll) chain the next exchanges without a promise each.
    const done = await conn.exchange(-1, granted, null, take);
    // Nothing completed: a connect that failed, or a request never sent (a filled value refused, counted
    // `bad-value`) on a connection still open. Either way wait before the next try: a loop of refusals
    // that only settles promises would never let timers or the stop message run.
    if (done === 0) {
      await sleepMs(CONNECT_BACKOFF_MS);
      conn.lastEventMs = performance.now();
    }
  }
}

/**
 * `closedLoop` for runs whose arrivals are sessions or connections of their own (`ctx.arrival`): one
 * arrival at a time, back to back; `take` then grants arrivals (sessions with flows), not requests.
 */
async function arrivalLoop(
  ctx: LoadContext,
  conn: LoadConnection,
  take: (depth: number, nowMs: number) => number,
): Promise<void> {
  const arrival = ctx.arrival!;
  conn.lastEventMs = performance.now();
  while (take(1, conn.lastEventMs) !== 0) {
    const done = await arrival(conn, -1);
    // Nothing completed: a connect that failed, or a request never sent (a filled value refused, counted
    // `bad-value`) on a connection still open. Either way wait before the next try: a loop of refusals
    // that only settles promises would never let timers or the stop message run.
    if (done === 0) {
      await sleepMs(CONNECT_BACKOFF_MS);
      conn.lastEventMs = performance.now();
    }
  }
}

/** The closed loop of this run: the plain one (pipelining) unless arrivals are sessions or own connections. */
export function closedLoopOf(ctx: LoadContext): typeof closedLoop {
  return ctx.arrival === null ? closedLoop : arrivalLoop;
}

export const connectionsExecutor: Executor = {
  model: "connections",
  async run(ctx: LoadContext): Promise<void> {
    const count = ctx.streamsPerConnection *
      shareOf(configOf(ctx.config, "connections").connections, ctx.workerIndex, ctx.workerCount);
    const take = (depth: number, nowMs: number) => (mayStart(ctx, nowMs) ? depth : 0);
    const loop = closedLoopOf(ctx);
    const conns = Array.from({ length: count }, () => ctx.newConnection());
    // Every connection opens before the first send (still after t0: connects belong to the run). On the
    // deno transport a connect issued while the others are busy is starved until the traffic stops: with
    // -c 5000 on a busy machine a third never opened in 8 s (docs/lab/PERFORMANCE_NOTES.md, "Held load"). A failed
    // connect is counted here and retried by its loop after the usual pause. Arrivals that are sessions
    // or connections of their own (per-arrival) open as they go.
    const opened = ctx.arrival === null
      ? await Promise.all(conns.map((conn) => conn.open()))
      : conns.map(() => true);
    await Promise.all(conns.map(async (conn, i) => {
      if (!opened[i]) await sleepMs(CONNECT_BACKOFF_MS);
      await loop(ctx, conn, take);
    }));
  },
};
