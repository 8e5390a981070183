/**
 * @module
 * `throughput` — constant total rate over a fixed set of connections with coordinated-omission
 * correction (wrk2 `-R`): send i is intended at start + i/rate and assigned round-robin, so each
 * connection runs at rate/connections. When a response is slow the connection's next sends go out
 * late, but their latency counts from the intended time (what a user arriving on schedule would
 * have seen); the recorder also keeps the uncorrected latency from the actual send.
 */
import { configOf } from "../config.ts";
import type { Executor, LoadContext } from "./executor.ts";
import { constantSchedule, shareOf } from "./schedule.ts";
import { pace } from "./pacer.ts";
import { FixedLanes } from "./lanes.ts";

export const throughputExecutor: Executor = {
  model: "throughput",
  async run(ctx: LoadContext): Promise<void> {
    const config = configOf(ctx.config, "throughput");
    const rate = config.ratePerSec;
    const connections = ctx.streamsPerConnection *
      Math.max(1, shareOf(config.connections, ctx.workerIndex, ctx.workerCount));
    const lanes = new FixedLanes(ctx, connections);
    const spanMs = ctx.endMs - ctx.startMs;
    await pace(ctx, constantSchedule(rate, { durationMs: spanMs }), (t, late) => lanes.dispatch(t, late));
    await lanes.finish();
  },
};
