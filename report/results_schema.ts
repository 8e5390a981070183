/**
 * @module
 * Validates a `results.json` read back from disk before the report renders it. The contract is
 * `runner/results.ts`; this schema checks the parts the report relies on and passes unknown keys
 * through, so files written by a newer loadlab (extra fields) still render, and files that lack
 * optional detail (telemetry, intervals, uncorrected latency) get empty defaults. JSON turns NaN into
 * null, so latency numbers accept null and come back as NaN, which the page shows as a dash.
 */
import { z } from "zod";
import type { ResultsFile } from "../runner/results.ts";

const num = z.number().nullable().transform((v) => v ?? Number.NaN);
const count = z.number().nullable().transform((v) => v ?? 0);

const latencySchema = z.object({
  min: num,
  mean: num,
  stdev: num,
  p2_5: num,
  p10: num,
  p25: num,
  p50: num,
  p75: num,
  p90: num,
  p95: num,
  p97_5: num,
  p99: num,
  p999: num,
  p9999: num,
  max: num,
}).passthrough();

const percentileSchema = z.object({ percentile: z.number(), latencyMs: num }).passthrough();

const intervalSchema = z.object({
  startMs: z.number(),
  durationMs: z.number().positive(),
  requests: count,
  errors: count,
  non2xx: count,
  p50: num,
  p75: num,
  p90: num,
  p99: num,
  mean: num,
  max: num,
  bytesRead: count,
  bytesWritten: count,
  lateSends: count,
  inFlight: count,
  connections: count,
  statusCodes: z.record(z.string(), z.number()).default({}),
}).passthrough();

const telemetrySchema = z.object({
  name: z.string(),
  kind: z.enum(["process", "redis"]),
  samples: z.array(
    z.object({
      tMs: z.number(),
      cpuPercent: z.number().optional(),
      rssBytes: z.number().optional(),
      opsPerSec: z.number().optional(),
      hits: z.number().optional(),
      misses: z.number().optional(),
    }).passthrough(),
  ),
}).passthrough();

const runSchema = z.object({
  name: z.string().min(1),
  variant: z.string().optional(),
  load: z.string().optional(),
  sweep: z.object({ parameter: z.string(), value: z.number() }).passthrough().optional(),
  repeat: z.number().int().min(0).optional(),
  url: z.string(),
  model: z.enum(["connections", "rate", "throughput", "count"]),
  config: z.record(z.string(), z.unknown()).default({}),
  startedAt: z.string(),
  durationSec: z.number(),
  warmupSec: z.number().default(0),
  requests: count,
  rps: num,
  targetRps: z.number().nullable().default(null),
  successRate: num,
  latencyMs: latencySchema,
  uncorrectedLatencyMs: latencySchema.nullable().default(null),
  percentiles: z.array(percentileSchema).default([]),
  uncorrectedPercentiles: z.array(percentileSchema).nullable().default(null),
  histogram: z.array(z.object({ fromMs: z.number(), toMs: z.number(), count: z.number() })).default([]),
  histogramEncoded: z.string().default(""),
  statusCodes: z.record(z.string(), z.number()).default({}),
  errors: z.record(z.string(), z.number()).default({}),
  errorMessages: z.record(z.string(), z.record(z.string(), z.number())).default({}),
  bytesRead: count,
  bytesWritten: count,
  lateSends: count,
  droppedSends: count.default(0),
  generatorBound: z.boolean().default(false),
  connects: count.default(0),
  reconnects: count.default(0),
  connectTimeMs: z.object({ min: num, mean: num, max: num, p99: num }).nullable().default(null),
  intervals: z.array(intervalSchema).default([]),
  workers: z.number().default(1),
  stabilizedAtMs: z.number().nullable().default(null),
  telemetry: z.array(telemetrySchema).optional(),
  logFile: z.string().optional(),
}).passthrough();

const resultsSchema = z.object({
  schema: z.literal("loadlab.results/v1", {
    error: 'schema must be "loadlab.results/v1" (is this a loadlab results.json?)',
  }),
  createdAt: z.string(),
  environment: z.object({
    loadlab: z.string().default("?"),
    deno: z.string().default("?"),
    v8: z.string().default("?"),
    typescript: z.string().default("?"),
    os: z.string().default("?"),
    arch: z.string().default("?"),
    cpu: z.string().default("?"),
    cores: z.number().default(0),
    hostname: z.string().optional(),
  }).passthrough(),
  experiment: z.object({
    name: z.string(),
    description: z.string().optional(),
    source: z.string().optional(),
    baseline: z.string().optional(),
  }).passthrough(),
  runs: z.array(runSchema),
  thresholds: z.array(
    z.object({ expression: z.string(), run: z.string(), actual: num, ok: z.boolean() }).passthrough(),
  ).default([]),
}).passthrough();

/** Outcome of validating untrusted JSON: the results, or one line saying where and what is wrong. */
export type ParseOutcome = { ok: true; results: ResultsFile } | { ok: false; problem: string };

/** Validates parsed JSON as a results file; the problem names the first bad path and what it expected. */
export function parseResultsFile(data: unknown): ParseOutcome {
  const parsed = resultsSchema.safeParse(data);
  if (parsed.success) {
    // The runtime checks above are what make this shape trustworthy; the error kinds are open-ended
    // on disk (forward compatibility), which is the only place the static types are narrower.
    return { ok: true, results: parsed.data as ResultsFile };
  }
  const issues = parsed.error.issues;
  const first = issues[0];
  const path = first.path.length ? first.path.join(".") : "(root)";
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problems)` : "";
  return { ok: false, problem: `${path}: ${first.message}${more}` };
}
