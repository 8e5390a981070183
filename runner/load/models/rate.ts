/**
 * @module
 * `rate`: the open model (Artillery arrivalRate, k6 ramping-arrival-rate): arrivals follow the phases
 * whatever the target does, on connections opened on demand up to `maxConnections`.
 */
import { z } from "zod";
import { MAX_DURATION_MS, MAX_DURATION_WORDS } from "../../../validation/duration.ts";
import { type Phase, phaseSchema, underOneSendIssues } from "./fields.ts";
import { OPTIONS } from "../../config_fields.ts";
import { defineModel } from "./model.ts";
import { phasesSchedule, shareOf, withWarmup } from "../schedule.ts";
import { pace } from "../pacer.ts";
import { SharedLanes } from "../lanes.ts";
import { firstRatePerSec, openPoolSize } from "../pre_connect.ts";

/** The arrivals the phases plan, fractions kept (the schedule sends at whole counts below it). */
function phasesArrivals(phases: ReadonlyArray<Phase>): number {
  return phases.reduce(
    (sum, p) => sum + ((p.ratePerSec + (p.rampToPerSec ?? p.ratePerSec)) * p.durationMs) / 2000,
    0,
  );
}

function phasesMs(c: { phases: ReadonlyArray<{ durationMs: number }> }): number {
  return c.phases.reduce((sum, p) => sum + p.durationMs, 0);
}

export const rateModel = defineModel({
  model: "rate",
  /** Arrivals follow the phases; the measured duration is their sum. */
  fields: {
    phases: z.array(phaseSchema).min(1, "rate model needs at least one phase"),
    maxConnections: OPTIONS.maxConnections.schema,
    preConnect: OPTIONS.preConnect.schema,
  },
  keepsUncorrected: false,
  check: (c) =>
    phasesMs(c) > MAX_DURATION_MS
      ? [{ path: ["phases"], message: `the phases together must be ${MAX_DURATION_WORDS}` }]
      : underOneSendIssues(phasesArrivals(c.phases), ["phases"]),
  poolSize: (c, worker) => openPoolSize(c, firstRatePerSec(withWarmup(c.phases, c.warmupMs)), worker),
  targetArrivalsPerSec(c) {
    const schedule = phasesSchedule(c.phases);
    return schedule.durationMs > 0 ? (schedule.count * 1000) / schedule.durationMs : 0;
  },
  measuredDurationMs: phasesMs,
  warmupFields: (_c, burst) => ({
    phases: [{ durationMs: burst.durationMs, ratePerSec: burst.ratePerSec }],
    maxConnections: 64,
    preConnect: 0,
  }),
  async run(ctx): Promise<void> {
    const config = ctx.config;
    const phases = withWarmup(config.phases, config.warmupMs);
    const maxLanes = ctx.streamsPerConnection *
      shareOf(config.maxConnections, ctx.workerIndex, ctx.workerCount);
    const lanes = new SharedLanes(ctx, Math.max(1, maxLanes), config.lateBoundMs);
    await pace(ctx, phasesSchedule(phases), (t, late) => lanes.dispatch(t, late));
    await lanes.finish();
  },
});
