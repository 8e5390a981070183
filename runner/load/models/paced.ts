/**
 * @module
 * The paced models. `rate`: the open model (Artillery arrivalRate, k6 ramping-arrival-rate): arrivals follow
 * the phases whatever the target does, on connections opened on demand up to `maxConnections`. `throughput`:
 * a constant rate over fixed connections with coordinated-omission correction (wrk2 `-R`): send i is intended
 * at start + i/rate, round-robin; latency counts from then, the uncorrected kept beside it.
 */
import { MAX_DURATION_MS, MAX_DURATION_WORDS } from "../../../validation/duration.ts";
import { connectionShareIssues, summedMs, underOneSendIssues } from "./fields.ts";
import { defineModel } from "./model.ts";
import { constantSchedule, phasesSchedule, slotsOf, withWarmup } from "../schedule.ts";
import { pace } from "../pacer.ts";
import { FixedLanes, paceOnDemand } from "../lanes.ts";
import { firstRatePerSec, openPoolSize } from "../pre_connect.ts";

export const rateModel = defineModel({
  model: "rate",
  check: (c) => {
    const uneven = c.phases.findIndex((p) => p.perSecond && p.perSecond.length * 1000 !== p.durationMs);
    if (uneven >= 0) {
      return [{ path: ["phases", uneven, "perSecond"], message: "needs one count per second of the phase" }];
    }
    return summedMs(c.phases) > MAX_DURATION_MS
      ? [{ path: ["phases"], message: `the phases together must be ${MAX_DURATION_WORDS}` }]
      : underOneSendIssues(phasesSchedule(c.phases).arrivals, ["phases"]);
  },
  poolSize: (c, worker) => openPoolSize(c, firstRatePerSec(withWarmup(c.phases, c.warmupMs)), worker),
  targetArrivalsPerSec(c) {
    const schedule = phasesSchedule(c.phases);
    return schedule.durationMs > 0 ? (schedule.count * 1000) / schedule.durationMs : 0;
  },
  warmupFields: (_c, burst) => ({
    phases: [{ durationMs: burst.durationMs, ratePerSec: burst.ratePerSec }],
    maxConnections: 64,
    preConnect: 0,
  }),
  async run(ctx): Promise<void> {
    const phases = withWarmup(ctx.config.phases, ctx.config.warmupMs);
    await paceOnDemand(ctx, phasesSchedule(phases), ctx.config.maxConnections, phases);
  },
});

export const throughputModel = defineModel({
  model: "throughput",
  check: (c) => [
    ...connectionShareIssues(c),
    ...underOneSendIssues((c.ratePerSec * c.durationMs) / 1000, ["ratePerSec"]),
  ],
  poolSize: (c, worker) => ({ count: worker.share(c.connections) }),
  targetArrivalsPerSec: (c) => c.ratePerSec,
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
