/**
 * @module
 * One endpoint's numbers in a run of `results.json` (`runs[i].endpoints`): the requests given one name
 * (runner/endpoint_table.ts), their latency (summary and the encoded HDR histogram, the run's precision,
 * so shards and files add exactly), status codes, error kinds, bytes and per-interval counts (aligned
 * with the run's `intervals`). The run's own totals stay as they are; endpoints split them.
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
  /**
   * The run's warm-up was cut after it ran (`warmup: auto`) and this endpoint's numbers were not: an
   * endpoint keeps no histogram per interval, so they still include the warm-up.
   */
  warmupIncluded: z.boolean().optional(),
  /** Responses and errors per interval, index for index with the run's `intervals`. */
  intervals: z.looseObject({ requests: z.array(z.number()), errors: z.array(z.number()) }),
});
