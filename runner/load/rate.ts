/**
 * @module
 * `rate` — the open model (Artillery arrivalRate / rampTo, k6 ramping-arrival-rate): requests arrive
 * on the phases' schedule whatever the target does. Connections are opened on demand up to
 * `maxConnections`; when all are busy a send waits and is counted late, and one that waited longer
 * than `lateBoundMs` is dropped and counted, so a generator-bound run is visible in the results.
 */
import { configOf } from "../config.ts";
import type { Executor, LoadContext } from "./executor.ts";
import { phasesSchedule, shareOf, withWarmup } from "./schedule.ts";
import { pace } from "./pacer.ts";
import { SharedLanes } from "./lanes.ts";

export const rateExecutor: Executor = {
  model: "rate",
  async run(ctx: LoadContext): Promise<void> {
    const config = configOf(ctx.config, "rate");
    const phases = withWarmup(config.phases, config.warmupMs);
    const maxLanes = ctx.streamsPerConnection *
      shareOf(config.maxConnections, ctx.workerIndex, ctx.workerCount);
    const lanes = new SharedLanes(ctx, Math.max(1, maxLanes), config.lateBoundMs);
    await pace(ctx, phasesSchedule(phases), (t, late) => lanes.dispatch(t, late));
    await lanes.finish();
  },
};
