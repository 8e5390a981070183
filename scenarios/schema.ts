/**
 * @module
 * Experiment files (docs/EXPERIMENTS.md) as one zod schema, `experimentSchema`, with the `Experiment` type
 * inferred from it: the structure (scenarios/schema_object.ts) refined by the checks that span fields (names
 * that must exist, a grid of two sweeps, thresholds that parse, proxy upstreams without cycles:
 * scenarios/schema_checks.ts), run once the structure is valid.
 */
import type { z } from "zod";
import { checkExperiment } from "./schema_checks.ts";
import { experimentObject } from "./schema_object.ts";

/** The experiment file format; the output has durations in milliseconds and names with units. */
export const experimentSchema = experimentObject.superRefine((exp, ctx) => {
  for (const issue of checkExperiment(exp)) ctx.addIssue({ code: "custom", ...issue });
}).transform(({ warmup, cooldown, interval, ...rest }) => ({
  ...rest,
  warmupMs: warmup === "auto" ? 0 : warmup,
  warmupAuto: warmup === "auto",
  cooldownMs: cooldown,
  intervalMs: interval,
}));

export type Experiment = z.output<typeof experimentSchema>;
