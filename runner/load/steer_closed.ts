/**
 * @module
 * The closed model's connections under steering: connection i runs while i is below the active count. A
 * retired one finishes its request in flight, then closes; one added later opens as its loop starts, and a
 * resume restarts what a pause ended. Without a change it is the plain closed model. A concurrency schedule
 * (ghz's) sets the active count the same way.
 */
import { type CommonConfig, type LoadContext, mayStart } from "./executor.ts";
import type { LoadConnection } from "../http/load_connection.ts";
import type { closedLoop } from "./closed_loop.ts";
import { slotsOf } from "./schedule.ts";

/**
 * Runs `conns` closed-loop (each once `opened[i]` settles) following the changes or this worker's share of
 * `concurrencySteps`, until `countdown.left` requests have started if given; throws a failure.
 */
export async function runSteeredLoops(
  ctx: LoadContext<CommonConfig & { readonly connections: number }>,
  conns: LoadConnection[],
  opened: Array<boolean | Promise<boolean>>,
  loop: typeof closedLoop,
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
    if (ctx.streamsPerConnection === 1 && mayStart(ctx, performance.now())) conn.release();
    ended();
  };
  const onFail = (err: unknown) => {
    failure ??= { err };
    ended();
  };
  const start = (i: number, open: boolean | Promise<boolean>) => {
    const take = (depth: number, nowMs: number) => {
      if (!mayStart(ctx, nowMs) || i >= activeAt(nowMs)) return 0;
      if (countdown === null) return depth;
      const granted = Math.min(depth, countdown.left);
      if ((countdown.left -= granted) === 0) steer.interrupt();
      return granted;
    };
    running.add(conns[i]);
    live++;
    loop(ctx, conns[i], take, open).then(onEnd, onFail);
  };
  for (let i = 0; i < opened.length; i++) start(i, opened[i]);
  opened.length = 0;
  while (mayStart(ctx, performance.now()) && countdown?.left !== 0) {
    const nowMs = performance.now();
    for (let i = 0; i < activeAt(nowMs); i++) {
      if (i === conns.length) conns.push(ctx.newConnection());
      if (!running.has(conns[i])) start(i, true);
    }
    await steer.waitChange(Math.min(ctx.endMs, steer.nextChangeAfter(nowMs), nextStepAfter(nowMs)));
  }
  if (live > 0) await new Promise<void>((resolve) => allEnded = resolve);
  // Set by the loops' handler, which the checker cannot see from here.
  const failed = failure as { err: unknown } | null;
  if (failed !== null) throw failed.err;
}
