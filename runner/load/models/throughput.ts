/**
 * @module
 * `throughput`: a constant rate over fixed connections with coordinated-omission correction (wrk2 `-R`):
 * send i is intended at start + i/rate, round-robin; latency counts from the intended time, the
 * uncorrected latency kept beside it.
 */
import { connectionShareIssues, ratePerSec, underOneSendIssues } from "./fields.ts";
import { OPTIONS } from "../../config_fields.ts";
import { defineModel } from "./model.ts";
import { constantSchedule, slotsOf } from "../schedule.ts";
import { pace } from "../pacer.ts";
import { FixedLanes } from "../lanes.ts";

export const throughputModel = defineModel({
  model: "throughput",
  /** wrk2: a constant total rate over fixed connections, latency from the intended send time. */
  fields: { ratePerSec, connections: OPTIONS.connections.schema, durationMs: OPTIONS.durationMs.schema },
  keepsUncorrected: true,
  check: (c) => [
    ...connectionShareIssues(c),
    ...underOneSendIssues((c.ratePerSec * c.durationMs) / 1000, ["ratePerSec"]),
  ],
  poolSize: (c, worker) => ({ count: worker.share(c.connections) }),
  targetArrivalsPerSec: (c) => c.ratePerSec,
  measuredDurationMs: (c) => c.durationMs,
  warmupFields: (_c, burst) => ({
    connections: burst.connections,
    ratePerSec: burst.ratePerSec,
    durationMs: burst.durationMs,
  }),
  async run(ctx): Promise<void> {
    const rate = ctx.config.ratePerSec;
    const connections = Math.max(1, slotsOf(ctx, ctx.config.connections));
    const lanes = new FixedLanes(ctx, connections);
    const spanMs = ctx.endMs - ctx.startMs;
    await pace(ctx, constantSchedule(rate, { durationMs: spanMs }), (t, late) => lanes.dispatch(t, late));
    await lanes.finish();
  },
});
