/**
 * @module
 * The closed loop the closed models share (`connections`, closed `count`, ramping connections): a
 * connection sends the next request as soon as the previous response has ended, while its `take`
 * grants requests. The intended send time is the actual one, so latency here is service time as seen
 * by one user. With flows or per-arrival connections each turn is one arrival (a session) instead.
 */
import type { LoadContext } from "./executor.ts";
import { sleepMs } from "./clock.ts";
import type { LoadConnection } from "../http/load_connection.ts";

/** Pause after a failed connect so a down target costs a count, not a spinning core. */
export const CONNECT_BACKOFF_MS = 10;

/**
 * Runs one connection closed-loop while `take(depth, nowMs)` grants requests; shared with `count`.
 * `nowMs` is when the previous exchange ended, so the loop costs no extra clock read per request. It
 * starts once `opened` settles (a failed open waits the backoff first) and resolves with `conn`, so
 * whoever runs a crowd of loops needs one end handler for all of them, not one a loop.
 */
export async function closedLoop(
  ctx: LoadContext,
  conn: LoadConnection,
  take: (depth: number, nowMs: number) => number,
  opened: boolean | Promise<boolean> = true,
): Promise<LoadConnection> {
  if (!(opened === true || await opened)) await sleepMs(CONNECT_BACKOFF_MS);
  opened = true; // the loop's frame would keep the settled promise for the run
  const depth = ctx.config.pipelining;
  conn.lastEventMs = performance.now();
  while (true) {
    const granted = take(depth, conn.lastEventMs);
    if (granted === 0) return conn;
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
  opened: boolean | Promise<boolean> = true,
): Promise<LoadConnection> {
  if (!(opened === true || await opened)) await sleepMs(CONNECT_BACKOFF_MS);
  opened = true;
  const arrival = ctx.arrival!;
  conn.lastEventMs = performance.now();
  while (take(1, conn.lastEventMs) !== 0) {
    // `take` lets the arrival start the next ones itself (a session script's), with no promise each.
    const done = await arrival(conn, -1, take);
    // Nothing completed: a connect that failed, or a request never sent (a filled value refused, counted
    // `bad-value`) on a connection still open. Either way wait before the next try: a loop of refusals
    // that only settles promises would never let timers or the stop message run.
    if (done === 0) {
      await sleepMs(CONNECT_BACKOFF_MS);
      conn.lastEventMs = performance.now();
    }
  }
  return conn;
}

/**
 * The closed loop of this run: the plain one (pipelining) unless arrivals are sessions or own connections.
 */
export function closedLoopOf(ctx: LoadContext): typeof closedLoop {
  return ctx.arrival === null ? closedLoop : arrivalLoop;
}
