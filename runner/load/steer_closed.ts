/**
 * @module
 * The closed model's connections under steering: connection i runs its loop while i is below the count
 * active now (the planned one, the last `connections` change's share, or none while paused). A retired
 * connection finishes the request it has in flight, then closes (over HTTP/1.1; an HTTP/2 stream slot
 * just idles, its connection shared); one added later opens as its loop starts, and a resume restarts the
 * loops that a pause ended. Without a change it is the plain closed model: every loop from start to end.
 */
import { type LoadContext, mayStart } from "./executor.ts";
import type { LoadConnection } from "../http/load_connection.ts";
import { sleepMs } from "./clock.ts";
import { CONNECT_BACKOFF_MS } from "./closed_loop.ts";

/**
 * Runs `conns` (the planned ones; `opened[i]` whether it opened, or the promise of it: its loop starts once
 * that settles) closed-loop and follows the changes until the end.
 */
export async function runSteeredLoops(
  ctx: LoadContext,
  conns: LoadConnection[],
  opened: ReadonlyArray<boolean | Promise<boolean>>,
  loop: (
    ctx: LoadContext,
    conn: LoadConnection,
    take: (depth: number, nowMs: number) => number,
  ) => Promise<void>,
): Promise<void> {
  const steer = ctx.steer;
  const planned = conns.length;
  const activeAt = (nowMs: number) =>
    !steer.steered ? planned : steer.pausedAt(nowMs) ? 0 : steer.connectionsAt(nowMs, planned);
  const running = new Map<number, Promise<void>>();
  // One promise chain per connection and no async frame of its own: a crowd of 20,000 loops waits in
  // the loops' frames only.
  const start = (i: number, opened: boolean | Promise<boolean>) => {
    const take = (depth: number, nowMs: number) => (mayStart(ctx, nowMs) && i < activeAt(nowMs) ? depth : 0);
    const run = (ok: boolean) =>
      ok ? loop(ctx, conns[i], take) : sleepMs(CONNECT_BACKOFF_MS).then(() => loop(ctx, conns[i], take));
    const looped = typeof opened === "boolean" ? run(opened) : opened.then(run);
    // One settlement handler each way (no `finally`): a crowd keeps one promise and two closures a loop.
    running.set(
      i,
      looped.then(() => {
        running.delete(i);
        if (ctx.streamsPerConnection === 1 && mayStart(ctx, performance.now())) conns[i].release();
      }, (err) => {
        running.delete(i);
        throw err;
      }),
    );
  };
  conns.forEach((_, i) => start(i, opened[i]));
  while (mayStart(ctx, performance.now())) {
    const nowMs = performance.now();
    for (let i = 0; i < activeAt(nowMs); i++) {
      if (i === conns.length) conns.push(ctx.newConnection());
      if (!running.has(i)) start(i, true);
    }
    await steer.waitChange(Math.min(ctx.endMs, steer.nextChangeAfter(nowMs)));
  }
  while (running.size > 0) await Promise.all(running.values());
}
