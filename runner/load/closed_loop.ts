/**
 * @module
 * The closed loop of the closed models: a connection sends again as soon as its response ended, while
 * `take` grants requests. The intended send is the actual one, so latency is one user's service time.
 */
import type { LoadContext } from "./executor.ts";
import { sleepMs } from "./clock.ts";
import type { LoadConnection } from "../http/load_connection.ts";

/** Pause after a failed connect so a down target costs a count, not a spinning core. */
export const CONNECT_BACKOFF_MS = 10;

/** Runs `conn` closed-loop while `take(depth, nowMs)` grants, once `opened` settles; resolves with `conn`. */
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
    // Nothing completed (a failed connect, a refused value): back off, so refusals cannot starve timers.
    if (done === 0) {
      await sleepMs(CONNECT_BACKOFF_MS);
      conn.lastEventMs = performance.now();
    }
  }
}

/** `closedLoop` whose turns are arrivals (sessions, connections of their own): `take` grants arrivals. */
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
    if (done === 0) {
      await sleepMs(CONNECT_BACKOFF_MS);
      conn.lastEventMs = performance.now();
    }
  }
  return conn;
}

/** This run's closed loop: the plain one unless arrivals are sessions or own connections. */
export function closedLoopOf(ctx: LoadContext): typeof closedLoop {
  return ctx.arrival === null ? closedLoop : arrivalLoop;
}
