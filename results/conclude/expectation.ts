/**
 * @module
 * What a study expects ("cached's p99 is lower than direct's under burst"), read leniently. Pure.
 */
import { z } from "zod";

const EXPECT_METRICS = ["rps", "mean", "p50", "p99", "success", "cpu"] as const;

/** The fields of one expectation, shared by the strict file schema and the lenient results schema. */
export const expectationShape = {
  /** rps and success: higher is better; mean, p50, p99, cpu (the target's per request): lower is better. */
  metric: z.enum(EXPECT_METRICS),
  /** The variant (target) expected to do better (with `between: loads`, the load) ... */
  better: z.string().min(1),
  /** ... than this one. */
  than: z.string().min(1),
  /** What `better` and `than` name: `targets` (default) or `loads` of one target, compared per target. */
  between: z.enum(["targets", "loads"]).optional(),
  /** Only at this load; every load both variants ran when absent (not with `between: loads`). */
  load: z.string().optional(),
  /** The study's own words, shown beside the verdict. */
  says: z.string().optional(),
  /** The condition the direction depends on (`instances`: `better` runs more, each on a core of its own). */
  needs: z.enum(["instances"]).optional(),
  /** The fewest cores the direction needs to show; below it the direction is "not judged". */
  cores: z.number().int().min(1).optional(),
};

/** One expectation as results.json holds it. */
export const expectationSchema = z.looseObject(expectationShape);
export type Expectation = z.output<typeof expectationSchema>;
