/**
 * @module
 * `count` — a fixed number of requests (`-n`). Without a rate it is closed-model: the connections
 * share a countdown and stop at zero. With a rate (`-n 1000 -R 200`) the sends are paced like the
 * rate model and the schedule simply ends after n sends. Either way exactly n requests are started
 * (all of them unless the run is stopped or a duration bound ends it first). With flows n counts
 * sessions, not requests.
 */
import { configOf } from "../config.ts";
import { type Executor, type LoadContext, mayStart } from "./executor.ts";
import { constantSchedule, shareOf } from "./schedule.ts";
import { closedLoopOf } from "./connections.ts";
import { pace } from "./pacer.ts";
import { SharedLanes } from "./lanes.ts";

export const countExecutor: Executor = {
  model: "count",
  async run(ctx: LoadContext): Promise<void> {
    const config = configOf(ctx.config, "count");
    const total = config.requests;
    if (config.ratePerSec !== undefined) {
      return await openCount(ctx, total, config.ratePerSec, config.maxConnections);
    }
    let remaining = shareOf(total, ctx.workerIndex, ctx.workerCount);
    const take = (depth: number, nowMs: number) => {
      if (remaining <= 0 || !mayStart(ctx, nowMs)) return 0;
      const granted = Math.min(depth, remaining);
      remaining -= granted;
      return granted;
    };
    const connections = ctx.streamsPerConnection *
      shareOf(config.connections, ctx.workerIndex, ctx.workerCount);
    const loop = closedLoopOf(ctx);
    await Promise.all(Array.from({ length: connections }, () => loop(ctx, ctx.newConnection(), take)));
  },
};

async function openCount(
  ctx: LoadContext,
  total: number,
  ratePerSec: number,
  maxConnections: number,
): Promise<void> {
  const maxLanes = ctx.streamsPerConnection * shareOf(maxConnections, ctx.workerIndex, ctx.workerCount);
  const lanes = new SharedLanes(ctx, Math.max(1, maxLanes), ctx.config.lateBoundMs);
  await pace(ctx, constantSchedule(ratePerSec, { count: total }), (t, late) => lanes.dispatch(t, late));
  await lanes.finish();
}
