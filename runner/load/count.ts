/**
 * @module
 * `count` — a fixed number of requests (`-n`). Without a rate it is closed-model: the connections
 * share a countdown and stop at zero. With a rate (`-n 1000 -R 200`) the sends are paced like the
 * rate model and the schedule simply ends after n sends. Either way exactly n requests are started
 * (all of them unless the run is stopped or a duration bound ends it first).
 */
import { type Executor, type LoadContext, mayStart } from "./executor.ts";
import { constantSchedule, shareOf } from "./schedule.ts";
import { closedLoop } from "./connections.ts";
import { pace } from "./pacer.ts";
import { SharedLanes } from "./lanes.ts";

export const countExecutor: Executor = {
  model: "count",
  async run(ctx: LoadContext): Promise<void> {
    const total = ctx.config.requests ?? 0;
    if (ctx.config.ratePerSec !== undefined) return await openCount(ctx, total, ctx.config.ratePerSec);
    let remaining = shareOf(total, ctx.workerIndex, ctx.workerCount);
    const take = (depth: number, nowMs: number) => {
      if (remaining <= 0 || !mayStart(ctx, nowMs)) return 0;
      const granted = Math.min(depth, remaining);
      remaining -= granted;
      return granted;
    };
    const connections = shareOf(ctx.config.connections, ctx.workerIndex, ctx.workerCount);
    await Promise.all(Array.from({ length: connections }, () => closedLoop(ctx, ctx.newConnection(), take)));
  },
};

async function openCount(ctx: LoadContext, total: number, ratePerSec: number): Promise<void> {
  const maxLanes = shareOf(ctx.config.maxConnections, ctx.workerIndex, ctx.workerCount);
  const lanes = new SharedLanes(ctx, Math.max(1, maxLanes), ctx.config.lateBoundMs);
  await pace(ctx, constantSchedule(ratePerSec, { count: total }), (t, late) => lanes.dispatch(t, late));
  await lanes.finish();
}
