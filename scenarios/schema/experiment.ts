/**
 * @module
 * Experiment files as one zod schema: the structure refined by the cross-field checks.
 */
import type { z } from "zod";
import { checkExperiment } from "./checks.ts";
import { experimentObject } from "./object.ts";

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
