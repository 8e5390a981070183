/**
 * @module
 * One endpoint's numbers in a run (`runs[i].endpoints`), with its HDR encoding so files add exactly.
 */
import { z } from "zod";
import { count, counts, histogramEncoding, latencySummarySchema } from "./values.ts";

/** One endpoint's totals and series. */
export const endpointResultSchema = z.looseObject({
  /** The request's `name:`, a flow step's label, else its method and path as written. */
  name: z.string(),
  method: z.string().optional(),
  /** User tags of its requests (a threshold may select by them). */
  tags: z.record(z.string(), z.string()).optional(),
  /** More than 1 when one name was given to that many different requests: their numbers pool. */
  pooledRequests: z.number().int().optional(),
  requests: count,
  /** Failed requests by error kind (a connect failure before any request was picked is the run's only). */
  errors: counts.default({}),
  statusCodes: counts.default({}),
  bytesRead: count.default(0),
  bytesWritten: count.default(0),
  /** Corrected latency of its responses; null when it had none. */
  latencyMs: latencySummarySchema.nullable(),
  /** Compressed base64 HdrHistogram of its latencies (µs); null when it had no response. */
  histogramEncoded: histogramEncoding.nullable(),
  /** `warmup: auto` cut the run's warm-up but not these numbers (no histogram per interval). */
  warmupIncluded: z.boolean().optional(),
  /** Responses and errors per interval, index for index with the run's `intervals`. */
  intervals: z.looseObject({ requests: z.array(z.number()), errors: z.array(z.number()) }),
});
