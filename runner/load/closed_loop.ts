/**
 * @module
 * The closed models' loop: a connection sends again once its response ended, so latency is service time.
 */
import { type CommonConfig, type LoadContext, mayStart } from "./executor.ts";
import { slotsOf } from "./schedule.ts";
import { sleepMs } from "./clock.ts";
import type { LoadConnection } from "../http/load_connection.ts";

/** Pause after a failed connect so a down target costs a count, not a spinning core. */
const CONNECT_BACKOFF_MS = 10;

/**
 * Runs `conn` closed-loop while `take(depth, nowMs)` grants, once `opened` settles; resolves with `conn`.
 * With arrivals (sessions, connections of their own) a turn is one arrival and `take` grants arrivals.
 */
export async function closedLoop(
  ctx: LoadContext,
  conn: LoadConnection,
  take: (depth: number, nowMs: number) => number,
  opened: boolean | Promise<boolean> = true,
  cut?: AbortSignal,
): Promise<LoadConnection> {
  if (!(opened === true || await opened)) await sleepMs(CONNECT_BACKOFF_MS);
  opened = true; // the loop's frame would keep the settled promise for the run
  const arrival = ctx.arrival;
  const depth = arrival === null ? ctx.config.pipelining : 1;
  conn.lastEventMs = performance.now();
  while (true) {
    const granted = take(depth, conn.lastEventMs);
    if (granted === 0) return conn;
    // `take` lets an inline transport (epoll) or an arrival start the next ones, no promise each.
    const done = arrival === null
      ? await conn.exchange(-1, granted, null, take)
      : await arrival(conn, -1, take, cut);
    // Nothing completed (a failed connect, a refused value): back off, so refusals cannot starve timers.
    if (done === 0) {
      await sleepMs(CONNECT_BACKOFF_MS);
      conn.lastEventMs = performance.now();
    }
  }
}

/**
 * Runs `conns` closed-loop (each once `opened[i]` settles) following the changes or this worker's share of
 * `concurrencySteps`, until `countdown.left` requests have started if given; throws a failure.
 */
export async function runSteeredLoops(
  ctx: LoadContext<CommonConfig & { readonly connections: number }>,
  conns: LoadConnection[],
  opened: Array<boolean | Promise<boolean>>,
  countdown: { left: number } | null = null,
): Promise<void> {
  const steer = ctx.steer;
  const planned = conns.length;
  const steps = ctx.config.concurrencySteps?.map((s) => ({
    atMs: ctx.startMs + ctx.config.warmupMs + s.atMs,
    slots: slotsOf({ ...ctx, concurrency: s.concurrency }, ctx.config.connections),
  }));
  const activeAt = steps !== undefined
    ? (nowMs: number) => steps.findLast((s) => s.atMs <= nowMs)?.slots ?? 0
    : (nowMs: number) =>
      !steer.steered ? planned : steer.pausedAt(nowMs) ? 0 : steer.connectionsAt(nowMs, planned);
  const nextStepAfter = (nowMs: number) => steps?.find((s) => s.atMs > nowMs)?.atMs ?? Infinity;
  // As ghz's pacer beside its schedule: call k waits for its tick, `1 / rate` after the one before in the
  // rate phase it falls in (one at rate 0 has none), then a free loop takes it.
  const ticks = ctx.config.tickPhases ?? [];
  const paced = ticks.length > 0;
  let tickAtMs = ctx.startMs + ctx.config.warmupMs;
  const nextTickAfter = (atMs: number, firstMs = ctx.startMs + ctx.config.warmupMs) => {
    for (const [k, [ms, rate]] of ticks.entries()) {
      firstMs += k === ticks.length - 1 ? Infinity : ms;
      if (atMs < firstMs) return rate > 0 ? atMs + (1000 * ctx.workerCount) / rate : firstMs;
    }
    return Infinity;
  };
  // The running loops, with one handler each way for all of them (a loop resolves with its connection).
  const running = new Set<LoadConnection>();
  let failure: { err: unknown } | null = null;
  let allEnded: (() => void) | null = null;
  let live = 0;
  const ended = () => {
    if (--live === 0) allEnded?.();
  };
  const onEnd = (conn: LoadConnection) => {
    running.delete(conn);
    // A paced loop ends to wait for its tick, its connection kept; the tick's wait is woken.
    if (paced) steer.interrupt();
    else if (ctx.streamsPerConnection === 1 && mayStart(ctx, performance.now())) conn.release();
    ended();
  };
  const onFail = (err: unknown) => {
    failure ??= { err };
    ended();
  };
  const start = (i: number, open: boolean | Promise<boolean>) => {
    const take = (depth: number, nowMs: number) => {
      if (!mayStart(ctx, nowMs) || i >= activeAt(nowMs) || (paced && nowMs < tickAtMs)) return 0;
      if (paced) [tickAtMs, depth] = [nextTickAfter(tickAtMs), 1];
      if (countdown === null) return depth;
      const granted = Math.min(depth, countdown.left);
      if ((countdown.left -= granted) === 0) steer.interrupt();
      return granted;
    };
    running.add(conns[i]);
    live++;
    closedLoop(ctx, conns[i], take, open).then(onEnd, onFail);
  };
  for (let i = 0; i < opened.length; i++) start(i, opened[i]);
  opened.length = 0;
  while (mayStart(ctx, performance.now()) && countdown?.left !== 0) {
    const nowMs = performance.now();
    // Paced, a loop a tick due; a loop that finds none due ends again.
    let due = paced ? Math.floor((nowMs - tickAtMs) / (nextTickAfter(tickAtMs) - tickAtMs)) + 1 : Infinity;
    for (let i = 0; i < activeAt(nowMs); i++) {
      if (i === conns.length) conns.push(ctx.newConnection());
      if (!running.has(conns[i]) && due-- > 0) start(i, true);
    }
    // Waiting for a tick only while a loop is free to take it (a loop's end wakes this wait).
    const tick = paced && running.size < activeAt(nowMs) ? tickAtMs : Infinity;
    await steer.waitChange(Math.min(ctx.endMs, steer.nextChangeAfter(nowMs), nextStepAfter(nowMs), tick));
  }
  if (live > 0) await new Promise<void>((resolve) => allEnded = resolve);
  // Set by the loops' handler, which the checker cannot see from here.
  const failed = failure as { err: unknown } | null;
  if (failed !== null) throw failed.err;
}
