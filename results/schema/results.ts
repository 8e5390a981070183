/**
 * @module
 * The one schema of `results.json`, every type inferred from it; unknown keys pass, v1 and v2 read as v3.
 */
import { z } from "zod";
import {
  type histogramBucketSchema,
  type latencySummarySchema,
  num,
  type percentilePointSchema,
  sweepPointSchema,
} from "./values.ts";
import type { ERROR_KINDS, LOAD_MODELS } from "./keys.ts";
import type { flowResultSchema, intervalSchema, phaseResultSchema, telemetrySchema } from "./series.ts";
import { type endpointResultSchema, runResultSchema, type targetInfoSchema } from "./run.ts";
import { expectationSchema } from "../conclude/expectation.ts";
import { exportSummarySchema } from "../export/summary.ts";

/** The tag of the format this module writes. */
export const RESULTS_SCHEMA = "loadlab.results/v3";
/** The tags of the previous formats, still read. */
const RESULTS_SCHEMA_V2 = "loadlab.results/v2";
const RESULTS_SCHEMA_V1 = "loadlab.results/v1";

/** Pass/fail of one threshold, e.g. `p99 < 200ms`, and the runs it applies to. */
const thresholdResultSchema = z.looseObject({
  expression: z.string(),
  run: z.string(),
  actual: num,
  ok: z.boolean(),
  scope: z.looseObject({ target: z.string().optional(), load: z.string().optional() }).optional(),
  /** Not evaluated: a shard's threshold waits for `loadlab merge`, which evaluates it on the whole load. */
  pending: z.boolean().optional(),
  /** Its selector matched no endpoint of the run (known only after a script ran): failed, unmeasured. */
  unmatched: z.boolean().optional(),
});

const environmentSchema = z.looseObject({
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
const shardInfoSchema = z.looseObject({
  index: z.number().int().min(0),
  /** The shard's file as given to `loadlab merge`. */
  file: z.string(),
  hostname: z.string().optional(),
  startAt: z.string().optional(),
  lateMs: z.number().optional(),
  environment: environmentSchema,
});

/** What `loadlab merge` made this file of: `count` segments, the shards present, the missing ones. */
const shardsSummarySchema = z.looseObject({
  count: z.number().int().min(1),
  /** Distinct hostnames the shards ran on. */
  hosts: z.array(z.string()),
  shards: z.array(shardInfoSchema),
  /** Segment indexes that were not merged (only with `--allow-partial`). */
  missing: z.array(z.number().int()).default([]),
  /** Some segments are missing: the totals cover only part of the configured load. */
  partial: z.boolean().default(false),
  /** Shards' schedules started over a millisecond apart (intervals are aligned by rounding). */
  unaligned: z.boolean().optional(),
});

const experimentInfoSchema = z.looseObject({
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
  /** The experiment as it ran, YAML, when --quick, --set or --target changed the file (scenarios/load.ts). */
  ranSource: z.string().optional(),
  /** Name of the baseline variant for change-in-% columns. */
  baseline: z.string().optional(),
  /** Runs the plan holds (the file is complete when that many are in it). */
  plannedRuns: z.number().int().min(0).optional(),
  /** The expected directions (a preset's `expect:`), judged by results/conclude/expect_verdict.ts. */
  expect: z.array(expectationSchema).optional(),
});

const analysisMetric = z.enum(["rps", "p50", "p99", "success"]);
const meanStats = z.looseObject({ n: z.number(), mean: num, stdev: num, ci95: num });
const runRef = z.looseObject({ value: z.number(), run: z.string() });

/** Analysis stored with the runs: repeat statistics, baseline comparisons, knees, capacity searches. */
const analysisSchema = z.looseObject({
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
    /** The noise rule could not judge the change (too few repeats or batches): neither beyond nor within. */
    noiseUnknown: z.boolean().optional(),
    /** Why not (a load whose rate changes within the run, a run that never settled, too few batches). */
    noiseNotJudged: z.string().optional(),
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
    /** What qualifies the value found (results/conclude/capacity.ts): flags of the probes it rests on. */
    qualifiers: z.array(z.string()).optional(),
  })),
});

/** The whole `results.json`; a v1 or v2 file reads as v3 (later versions only added optional fields). */
export const resultsFileSchema = z.looseObject({
  schema: z.enum([RESULTS_SCHEMA, RESULTS_SCHEMA_V2, RESULTS_SCHEMA_V1], {
    error: `schema must be "${RESULTS_SCHEMA}", "${RESULTS_SCHEMA_V2}" or "${RESULTS_SCHEMA_V1}" ` +
      "(is this a loadlab results.json?)",
  }).transform((): typeof RESULTS_SCHEMA => RESULTS_SCHEMA),
  createdAt: z.string(),
  /** An older or hand-made file without it reads as an unknown machine: a gate calls it another machine. */
  environment: environmentSchema.prefault({}),
  experiment: experimentInfoSchema,
  runs: z.array(runResultSchema),
  thresholds: z.array(thresholdResultSchema).default([]),
  /** Every planned run is in the file (false while an experiment is running or after Ctrl-C). */
  complete: z.boolean().optional(),
  /** Planned runs a threshold's `abortOnFail` kept from starting. */
  notRun: z.array(z.string()).optional(),
  /** What a stop (Ctrl-C, SIGTERM) cut before a run's load: "the script's top level", "setup() (run r1)". */
  stoppedIn: z.string().optional(),
  analysis: analysisSchema.optional(),
  /** Present on a file made by `loadlab merge` of several segments' shards. */
  shards: shardsSummarySchema.optional(),
  /** Secrets replaced by `[redacted N chars sha256:…]` (results/redact.ts); absent with `--no-redact`. */
  redaction: z.looseObject({ secrets: z.number().int().min(0), kinds: z.array(z.string()) }).optional(),
  /** `--out KIND=URL`: what each metrics output sent, dropped and failed (results/export/summary.ts). */
  export: z.array(exportSummarySchema).optional(),
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
export type EndpointResult = z.output<typeof endpointResultSchema>;
export type TargetInfo = z.output<typeof targetInfoSchema>;
export type RunResult = z.output<typeof runResultSchema>;
export type ThresholdResult = z.output<typeof thresholdResultSchema>;
export type EnvironmentInfo = z.output<typeof environmentSchema>;
export type ExperimentInfo = z.output<typeof experimentInfoSchema>;
export type Analysis = z.output<typeof analysisSchema>;
export type ShardsSummary = z.output<typeof shardsSummarySchema>;
export type ResultsFile = z.output<typeof resultsFileSchema>;
