/**
 * @module
 * The small value schemas `results.json` is built from (counts, summaries; null latency reads as NaN). Pure.
 */
import { z } from "zod";
import { encodingProblem } from "../histogram_v2.ts";
import { customIssue } from "../../validation/mod.ts";
import { PERCENTILE_FIELDS } from "./keys.ts";

/** A float that JSON.stringify wrote as null (NaN, Infinity): read back as "no value". */
export const num = z.number().nullable().transform((v) => v ?? Number.NaN);
const RESTORE = "restore the file loadlab wrote";
const COUNT = `a count is from 0 to 2^53; ${RESTORE}`;
const countNumber = z.number().min(0, COUNT).max(Number.MAX_SAFE_INTEGER, COUNT);
/** A rate or a length: a negative one is no writer's; null reads as NaN, as `num`. */
export const nonNegative = z.number().min(0, `0 or more; ${RESTORE}`).nullable().transform((v) =>
  v ?? Number.NaN
);
/** A share 0..1 (a success rate); null reads as NaN. */
export const share = z.number().min(0, `a share from 0 to 1; ${RESTORE}`).max(
  1,
  `a share from 0 to 1; ${RESTORE}`,
)
  .nullable().transform((v) => v ?? Number.NaN);
/** A counter; null (as a file written by hand may hold) reads as 0. */
export const count = countNumber.nullable().transform((v) => v ?? 0);
/** A histogram as results carry it (compressed base64, µs); one that cannot be read is refused here. */
export const histogramEncoding = z.string().superRefine((encoded, ctx) => {
  const problem = encodingProblem(encoded);
  if (problem !== null) customIssue(ctx, [], problem);
});
/** Counts by key: status codes, error kinds. */
export const counts = z.record(z.string(), countNumber);

/** A number for each percentile field, in `PERCENTILE_FIELDS`' order. */
const percentileNums = Object.fromEntries(PERCENTILE_FIELDS.map(([key]) => [key, num])) as Record<
  (typeof PERCENTILE_FIELDS)[number][0],
  typeof num
>;

export const latencySummarySchema = z.looseObject({
  min: num,
  mean: num,
  stdev: num,
  ...percentileNums,
  max: num,
}).superRefine((summary, ctx) => {
  const problem = percentilesOutOfOrder(summary);
  if (problem !== null) customIssue(ctx, [problem.key], problem.message);
});

function percentilesOutOfOrder(summary: Record<(typeof PERCENTILE_FIELDS)[number][0], number>) {
  let lastKey = "", last = -Infinity;
  for (const [key] of PERCENTILE_FIELDS) {
    const v = summary[key];
    if (!Number.isFinite(v)) continue;
    // A hair below is rounding from a merge, not disorder.
    if (v < last - Math.abs(last) * 1e-9) {
      return {
        key,
        message: `percentiles rise from p2_5 to p9999, found ${key} ${v} below ${lastKey} ${last}; ` +
          "restore the file loadlab wrote",
      };
    }
    lastKey = key, last = v;
  }
  return null;
}

/** The percentile fields of a latency summary (its known keys, without the pass-through ones). */
export type LatencyKey = keyof typeof latencySummarySchema.shape;

/** One point of the percentile distribution curve (HDR-style plot). */
export const percentilePointSchema = z.looseObject({ percentile: z.number(), latencyMs: num });
/** One histogram bar: `count` requests with latency in [fromMs, toMs). */
export const histogramBucketSchema = z.looseObject({
  fromMs: z.number(),
  toMs: z.number(),
  count: z.number().min(0),
});
/** The value of a swept parameter of an experiment: a number, or a word (`load.protocol` = `h2`). */
export const sweepPointSchema = z.looseObject({
  parameter: z.string(),
  value: z.union([z.number(), z.string()]),
});
