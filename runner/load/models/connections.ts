/**
 * @module
 * `connections`: the closed model (autocannon / oha `-c`): each of this worker's connections sends again as
 * soon as its response ended, until the run's end; with flows each runs sessions back to back. Steered,
 * connection i runs while i is below the active count: a retired one finishes its request in flight, then
 * closes; one added later opens as its loop starts, and a resume restarts what a pause ended.
 */
import { connections, connectionShareIssues, DEFAULT_DURATION_MS, durationMs } from "./fields.ts";
import { defineModel } from "./model.ts";
import { slotsOf } from "../schedule.ts";
import { type closedLoop, closedLoopOf } from "../closed_loop.ts";
import { nextTurn } from "../clock.ts";
import { type LoadContext, mayStart } from "../executor.ts";
import type { LoadConnection } from "../../http/load_connection.ts";

/**
 * Connects started per event-loop turn when a crowd opens: each takes a busy kernel 300-500 us, and a turn
 * of 20,000 would keep the loop for seconds while the first ones time out unread.
 */
const CONNECTS_PER_TURN = 256;

/** Starts opening every connection a slice a turn: each one's promise of whether it opened. */
function openInSlices(conns: LoadConnection[]): Promise<boolean>[] {
  const opening: Promise<boolean>[] = [];
  let turn: Promise<void> = Promise.resolve();
  for (let i = 0; i < conns.length; i++) {
    const conn = conns[i];
    if (i > 0 && i % CONNECTS_PER_TURN === 0) turn = turn.then(nextTurn);
    opening.push(i < CONNECTS_PER_TURN ? conn.open() : turn.then(() => conn.open()));
  }
  return opening;
}

export const connectionsModel = defineModel({
  model: "connections",
  fields: { connections, durationMs: durationMs.default(DEFAULT_DURATION_MS) },
  keepsUncorrected: false,
  check: (c) => connectionShareIssues(c),
  poolSize: () => null,
  targetArrivalsPerSec: () => null,
  measuredDurationMs: (c) => c.durationMs,
  warmupFields: (_c, burst) => ({ connections: burst.connections, durationMs: burst.durationMs }),
  async run(ctx): Promise<void> {
    const count = slotsOf(ctx, ctx.config.connections);
    const loop = closedLoopOf(ctx);
    const conns = Array.from({ length: count }, () => ctx.newConnection());
    // Like wrk, each connection starts its loop once open (after t0: connects belong to the run). On the
    // deno transport connects issued beside traffic starve (docs/lab/PERFORMANCE_NOTES.md, "Held load"),
    // so there all open before the first send. Per-arrival connections open as they go.
    const opened = ctx.arrival !== null
      ? conns.map(() => true)
      : ctx.shared.connectsBesideTraffic
      ? openInSlices(conns)
      : await Promise.all(openInSlices(conns));
    // Steering may add, retire, pause and resume connections (`runSteeredLoops`).
    await runSteeredLoops(ctx, conns, opened, loop);
  },
});

/** Runs `conns` closed-loop (each once `opened[i]` settles), following the changes; throws a failure. */
async function runSteeredLoops(
  ctx: LoadContext,
  conns: LoadConnection[],
  opened: Array<boolean | Promise<boolean>>,
  loop: typeof closedLoop,
): Promise<void> {
  const steer = ctx.steer;
  const planned = conns.length;
  const activeAt = (nowMs: number) =>
    !steer.steered ? planned : steer.pausedAt(nowMs) ? 0 : steer.connectionsAt(nowMs, planned);
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
    const take = (depth: number, nowMs: number) => (mayStart(ctx, nowMs) && i < activeAt(nowMs) ? depth : 0);
    running.add(conns[i]);
    live++;
    loop(ctx, conns[i], take, open).then(onEnd, onFail);
  };
  for (let i = 0; i < opened.length; i++) start(i, opened[i]);
  opened.length = 0;
  while (mayStart(ctx, performance.now())) {
    const nowMs = performance.now();
    for (let i = 0; i < activeAt(nowMs); i++) {
      if (i === conns.length) conns.push(ctx.newConnection());
      if (!running.has(conns[i])) start(i, true);
    }
    await steer.waitChange(Math.min(ctx.endMs, steer.nextChangeAfter(nowMs)));
  }
  if (live > 0) await new Promise<void>((resolve) => allEnded = resolve);
  // Set by the loops' handler, which the checker cannot see from here.
  const failed = failure as { err: unknown } | null;
  if (failed !== null) throw failed.err;
}
