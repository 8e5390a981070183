/**
 * @module
 * The one schema of `results.json`, the file the runner writes and users, CI jobs and the report read.
 * Every type of the format is inferred from it (`z.output`), so the writer and the reader cannot drift
 * apart. It is lenient where files from other versions differ: unknown keys pass through (`looseObject`,
 * so files of a newer loadlab still load), optional detail gets empty defaults, and JSON's `null` for a
 * NaN latency comes back as NaN (the page shows a dash). Latencies are in milliseconds (floats with
 * microsecond precision) because that is what people read; the encoded HDR histograms keep microseconds.
 * Version 2 only adds optional fields, so a v1 file is a v2 file with another tag: the `schema` field
 * accepts both and always reads as v2.
 */
import { z } from "zod";

/** The tag of the format this module writes. */
export const RESULTS_SCHEMA = "loadlab.results/v2";
/** The tag of the previous format, still read. */
export const RESULTS_SCHEMA_V1 = "loadlab.results/v1";

/** The load models an executor implements; the one list of them. */
export const LOAD_MODELS = ["connections", "rate", "throughput", "count"] as const;
/** Error kinds counted on the hot path; never one object per failure. */
export const ERROR_KINDS = ["connect", "timeout", "reset", "parse", "closed-early", "write", "tls"] as const;

// NaN and Infinity are written as null by JSON.stringify: read them back as "no value".
const num = z.number().nullable().transform((v) => v ?? Number.NaN);
const count = z.number().nullable().transform((v) => v ?? 0);
const counts = z.record(z.string(), z.number());

export const latencySummarySchema = z.looseObject({
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
});

/** The percentile fields of a latency summary (its known keys, without the pass-through ones). */
export type LatencyKey = keyof typeof latencySummarySchema.shape;

/** One point of the percentile distribution curve (HDR-style plot). */
const percentilePointSchema = z.looseObject({ percentile: z.number(), latencyMs: num });
/** One histogram bar: `count` requests with latency in [fromMs, toMs). */
const histogramBucketSchema = z.looseObject({ fromMs: z.number(), toMs: z.number(), count: z.number() });
const sweepPointSchema = z.looseObject({ parameter: z.string(), value: z.number() });

/** Statistics of one time interval (default 250 ms), merged across workers. */
export const intervalSchema = z.looseObject({
  /** Start relative to the start of the measured run (after warm-up). */
  startMs: z.number(),
  durationMs: z.number().positive(),
  /** Completed requests (any status). */
  requests: count,
  /** Failed requests (error kinds, not HTTP status). */
  errors: count,
  /** Responses with a status >= 400 (or anything not 2xx/3xx). */
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
  /** Requests in flight at the end of the interval, summed over workers. */
  inFlight: count,
  /** Open connections at the end of the interval. */
  connections: count,
  statusCodes: counts.default({}),
  /** Base64 HDR histogram (microseconds) of this interval; absent with `--interval-histograms none`. */
  histogramEncoded: z.string().optional(),
});

/** Telemetry of a target process or a Redis server, sampled per interval. */
export const telemetrySchema = z.looseObject({
  /** e.g. "target", "target#2", "redis". */
  name: z.string(),
  kind: z.enum(["process", "redis"]),
  samples: z.array(z.looseObject({
    tMs: z.number(),
    cpuPercent: z.number().optional(),
    rssBytes: z.number().optional(),
    opsPerSec: z.number().optional(),
    hits: z.number().optional(),
    misses: z.number().optional(),
  })),
});

/** One phase of an open-model run, computed exactly from the interval histograms. */
export const phaseResultSchema = z.looseObject({
  name: z.string(),
  startMs: z.number(),
  durationMs: z.number(),
  requests: count,
  rps: num,
  successRate: num,
  timeouts: count,
  non2xx: count,
  statusCodes: counts.default({}),
  errors: counts.default({}),
  latencyMs: latencySummarySchema,
});

/** Sessions of one flow, with per-step latency. */
export const flowResultSchema = z.looseObject({
  name: z.string(),
  sessions: count,
  completed: count,
  failed: count,
  sessionMs: latencySummarySchema.nullable(),
  steps: z.array(z.looseObject({
    label: z.string(),
    requests: count,
    errors: count,
    latencyMs: latencySummarySchema.nullable(),
  })),
});

/** How the target of a run was provided (`example`: an app of examples/, see targets/example.ts). */
export const targetInfoSchema = z.looseObject({
  kind: z.enum(["builtin", "external", "example", "proxy", "url"]),
  runtime: z.string().optional(),
  command: z.string().optional(),
  /** Built-in target: processes serving the requests (behind the balancer when more than one). */
  instances: z.number().optional(),
});

/** The result of one run of one load against one target. */
export const runResultSchema = z.looseObject({
  /** Unique within a results file, e.g. "cached/burst#1" or "attack". */
  name: z.string().min(1),
  /** Variant (target name) and load name when part of an experiment. */
  variant: z.string().optional(),
  load: z.string().optional(),
  /** Value of the swept parameter, and of the second one in a grid. */
  sweep: sweepPointSchema.optional(),
  sweep2: sweepPointSchema.optional(),
  /** Repeat index (0-based) when the experiment repeats runs. */
  repeat: z.number().int().min(0).optional(),
  /** Stopped early (Ctrl-C, target died): the numbers cover only part of the planned run. */
  incomplete: z.boolean().optional(),
  /** A short probe run of a capacity search. */
  probe: z.boolean().optional(),
  /** Statistics cut at the stabilization time after the run (`warmup: auto`). */
  warmupAuto: z.boolean().optional(),
  url: z.string(),
  model: z.enum(LOAD_MODELS),
  /** The validated attack configuration, as JSON. */
  config: z.record(z.string(), z.unknown()).default({}),
  startedAt: z.string(),
  /** Measured duration (excludes warm-up). */
  durationSec: z.number(),
  warmupSec: z.number().default(0),
  /** Completed requests (responses received, any status), excluding warm-up. */
  requests: count,
  /** requests / durationSec. */
  rps: num,
  /** Requested rate for open models (req/s), null for closed models. */
  targetRps: z.number().nullable().default(null),
  /** Share of sent requests that got a 2xx/3xx response, 0..1. */
  successRate: num,
  latencyMs: latencySummarySchema,
  /** For the throughput model: latency measured from the actual send time. Null otherwise. */
  uncorrectedLatencyMs: latencySummarySchema.nullable().default(null),
  percentiles: z.array(percentilePointSchema).default([]),
  uncorrectedPercentiles: z.array(percentilePointSchema).nullable().default(null),
  /** oha-style equal-width buckets from fastest to slowest. */
  histogram: z.array(histogramBucketSchema).default([]),
  /** Log-spaced buckets (8 per decade), for charts; absent in older files. */
  logHistogram: z.array(histogramBucketSchema).optional(),
  /** Base64 HdrHistogram encoding (microseconds) of the whole run, for re-analysis. */
  histogramEncoded: z.string().default(""),
  statusCodes: counts.default({}),
  /** Counts by error kind (`ERROR_KINDS`); open-ended on disk so newer kinds still load. */
  errors: counts.default({}),
  /** A bounded map of distinct error messages per kind with their counts. */
  errorMessages: z.record(z.string(), counts).default({}),
  bytesRead: count,
  bytesWritten: count,
  /** Sends that could not go out at their intended time (open models). */
  lateSends: count,
  /** Sends dropped because they were later than the bound. */
  droppedSends: count.default(0),
  /**
   * True when sends the generator dispatched late (the isolate was behind) exceed 1% of sends and
   * outnumber server-bound ones, or exceed 10%: the generator, not the target, limited the run.
   */
  generatorBound: z.boolean().default(false),
  /** Open models: sends that waited for a connection, every one busy at the server (none could open). */
  serverBoundSends: count.optional(),
  /** Server-bound sends over 1% of sends and the run not generator-bound: the target limited it. */
  serverBound: z.boolean().optional(),
  /** The socket transport the run used (`--transport`); absent in files from before it was chosen. */
  transport: z.enum(["epoll", "deno"]).optional(),
  /** Why `--transport epoll` was asked for and `deno` used (https:, not Linux, FFI not permitted). */
  transportFallback: z.string().optional(),
  /** Connections open at t0 (opened before the first send; `--pre-connect`, or Little's law). */
  preConnected: count.optional(),
  /** The latency estimate (ms) the pre-connect pool was sized with: the target's connect round trip. */
  preConnectEstimateMs: z.number().nullable().optional(),
  /** Time spent before t0 warming the generator against its in-process sink; 0 when skipped. */
  generatorWarmupMs: z.number().optional(),
  /** Most connects to the target in flight at once (summed over workers), pre-connect included. */
  maxConnectsInFlight: count.optional(),
  connects: count.default(0),
  /** Connections closed by the server (Connection: close or EOF) and reopened. */
  reconnects: count.default(0),
  connectTimeMs: z.looseObject({ min: num, mean: num, max: num, p99: num }).nullable().default(null),
  intervals: z.array(intervalSchema).default([]),
  workers: z.number().default(1),
  /** Start of the interval after which latency is stable (warm-up over), or null if never. */
  stabilizedAtMs: z.number().nullable().default(null),
  telemetry: z.array(telemetrySchema).optional(),
  /** Path of the raw request log, when requested. */
  logFile: z.string().optional(),
  phases: z.array(phaseResultSchema).optional(),
  flows: z.array(flowResultSchema).optional(),
  targetInfo: targetInfoSchema.optional(),
  /** Counter deltas of the target over the run (proxy hits/misses/bypasses, staleHits, limited, ...). */
  targetStats: z.record(z.string(), z.number()).optional(),
  /**
   * One execution segment of a load split over several generators (`--segment index/count`): the run
   * holds only this shard's share until `loadlab merge` adds the shards up. `startAt` is when its
   * schedule started (warm-up included; the shared `--start-at` when given), `lateMs` how late this
   * shard was for it.
   */
  segment: z.looseObject({
    index: z.number().int().min(0),
    count: z.number().int().min(1),
    startAt: z.string(),
    lateMs: z.number().optional(),
  }).optional(),
});

/** Pass/fail of one threshold, e.g. `p99 < 200ms`, and the runs it applies to. */
export const thresholdResultSchema = z.looseObject({
  expression: z.string(),
  run: z.string(),
  actual: num,
  ok: z.boolean(),
  scope: z.looseObject({ target: z.string().optional(), load: z.string().optional() }).optional(),
  /** Not evaluated: a shard's gate waits for `loadlab merge`, which evaluates it on the whole load. */
  pending: z.boolean().optional(),
});

/** Where the runs happened, for the report header. */
export const environmentSchema = z.looseObject({
  loadlab: z.string().default("?"),
  deno: z.string().default("?"),
  v8: z.string().default("?"),
  typescript: z.string().default("?"),
  os: z.string().default("?"),
  arch: z.string().default("?"),
  cpu: z.string().default("?"),
  cores: z.number().default(0),
  hostname: z.string().optional(),
  /** `git rev-parse HEAD` of the working directory, when it is a git repository. */
  gitCommit: z.string().optional(),
});

/** One shard of a merged file: its segment, where it ran, and its own environment. */
export const shardInfoSchema = z.looseObject({
  index: z.number().int().min(0),
  /** The shard's file as given to `loadlab merge`. */
  file: z.string(),
  hostname: z.string().optional(),
  startAt: z.string().optional(),
  lateMs: z.number().optional(),
  environment: environmentSchema,
});

/** What `loadlab merge` made this file of: `count` segments, the shards present, the missing ones. */
export const shardsSummarySchema = z.looseObject({
  count: z.number().int().min(1),
  /** Distinct hostnames the shards ran on. */
  hosts: z.array(z.string()),
  shards: z.array(shardInfoSchema),
  /** Segment indexes that were not merged (only with `--allow-partial`). */
  missing: z.array(z.number().int()).default([]),
  /** Some segments are missing: the totals cover only part of the configured load. */
  partial: z.boolean().default(false),
  /** Shards' schedules did not start within a millisecond of each other (intervals were aligned by rounding). */
  unaligned: z.boolean().optional(),
});

/** The experiment the runs belong to. */
export const experimentInfoSchema = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  /** Source text of the experiment file (or the command line for `attack`). */
  source: z.string().optional(),
  /** Path of the experiment file, the study it reproduces, the preset it came from. */
  file: z.string().optional(),
  study: z.string().optional(),
  preset: z.string().optional(),
  /** Run with `--quick`. */
  quick: z.boolean().optional(),
  /** Name of the baseline variant for change-in-% columns. */
  baseline: z.string().optional(),
  /** Runs the plan holds (the file is complete when that many are in it). */
  plannedRuns: z.number().int().min(0).optional(),
});

const analysisMetric = z.enum(["rps", "p50", "p99", "success"]);
const meanStats = z.looseObject({ n: z.number(), mean: num, stdev: num, ci95: num });
const runRef = z.looseObject({ value: z.number(), run: z.string() });

/** Analysis stored with the runs: repeat statistics, baseline comparisons, knees, capacity searches. */
export const analysisSchema = z.looseObject({
  noiseRule: z.enum(["repeats", "within-run"]),
  groups: z.array(z.looseObject({
    key: z.string(),
    variant: z.string().nullable(),
    load: z.string().nullable(),
    sweep: sweepPointSchema.nullable(),
    sweep2: sweepPointSchema.nullable(),
    runs: z.array(z.string()),
    metrics: z.record(analysisMetric, meanStats),
  })),
  comparisons: z.array(z.looseObject({
    group: z.string(),
    baselineGroup: z.string(),
    metric: analysisMetric,
    changePct: num,
    beyondNoise: z.boolean(),
  })),
  knees: z.array(z.looseObject({
    variant: z.string().nullable(),
    load: z.string().nullable(),
    parameter: z.string(),
    value: z.number().nullable(),
    reason: z.string(),
  })),
  searches: z.array(z.looseObject({
    parameter: z.string(),
    target: z.string(),
    load: z.string(),
    slo: z.string(),
    value: z.number().nullable(),
    low: runRef.nullable(),
    high: runRef.nullable(),
    confirmRun: z.string().nullable(),
    probes: z.array(z.looseObject({ value: z.number(), run: z.string(), ok: z.boolean() })),
  })),
});

/** The whole `results.json`; a v1 file reads as v2 (v2 only added optional fields). */
export const resultsFileSchema = z.looseObject({
  schema: z.enum([RESULTS_SCHEMA, RESULTS_SCHEMA_V1], {
    error: `schema must be "${RESULTS_SCHEMA}" or "${RESULTS_SCHEMA_V1}" (is this a loadlab results.json?)`,
  }).transform((): typeof RESULTS_SCHEMA => RESULTS_SCHEMA),
  createdAt: z.string(),
  environment: environmentSchema,
  experiment: experimentInfoSchema,
  runs: z.array(runResultSchema),
  thresholds: z.array(thresholdResultSchema).default([]),
  /** Every planned run is in the file (false while an experiment is running or after Ctrl-C). */
  complete: z.boolean().optional(),
  analysis: analysisSchema.optional(),
  /** Present on a file made by `loadlab merge` of several segments' shards. */
  shards: shardsSummarySchema.optional(),
});

export type LoadModel = (typeof LOAD_MODELS)[number];
export type ErrorKind = (typeof ERROR_KINDS)[number];
export type LatencySummaryMs = z.output<typeof latencySummarySchema>;
export type PercentilePoint = z.output<typeof percentilePointSchema>;
export type HistogramBucket = z.output<typeof histogramBucketSchema>;
export type IntervalResult = z.output<typeof intervalSchema>;
export type TelemetrySeries = z.output<typeof telemetrySchema>;
export type PhaseResult = z.output<typeof phaseResultSchema>;
export type FlowResult = z.output<typeof flowResultSchema>;
export type TargetInfo = z.output<typeof targetInfoSchema>;
export type RunResult = z.output<typeof runResultSchema>;
export type ThresholdResult = z.output<typeof thresholdResultSchema>;
export type EnvironmentInfo = z.output<typeof environmentSchema>;
export type ExperimentInfo = z.output<typeof experimentInfoSchema>;
export type Analysis = z.output<typeof analysisSchema>;
export type ShardsSummary = z.output<typeof shardsSummarySchema>;
export type ResultsFile = z.output<typeof resultsFileSchema>;
