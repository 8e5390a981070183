/**
 * @module
 * The shape of what a run produces: the contract between the runner (which fills it), the terminal
 * printer and the HTML report (which only read it), and CI jobs that gate on `results.json`. Types only,
 * no runtime code, so `report/` can import it without pulling in anything that touches `Deno.*`.
 * Latencies are in milliseconds (floats with microsecond precision) because that is what people read;
 * the encoded histograms keep microseconds.
 */

/** The load models an executor implements. */
export type LoadModel = "connections" | "rate" | "throughput" | "count";

/** Error kinds counted on the hot path; never one object per failure. */
export type ErrorKind =
  | "connect"
  | "timeout"
  | "reset"
  | "parse"
  | "closed-early"
  | "write"
  | "tls";

/** Summary of one latency distribution, all in milliseconds. */
export interface LatencySummaryMs {
  min: number;
  mean: number;
  stdev: number;
  p2_5: number;
  p10: number;
  p25: number;
  p50: number;
  p75: number;
  p90: number;
  p95: number;
  p97_5: number;
  p99: number;
  p999: number;
  p9999: number;
  max: number;
}

/** One point of the percentile distribution curve (HDR-style plot). */
export interface PercentilePoint {
  percentile: number;
  latencyMs: number;
}

/** One histogram bar: `count` requests with latency in [fromMs, toMs). */
export interface HistogramBucket {
  fromMs: number;
  toMs: number;
  count: number;
}

/** Statistics of one time interval (default 250 ms), merged across workers. */
export interface IntervalResult {
  /** Start of the interval relative to the start of the measured run (after warm-up). */
  startMs: number;
  durationMs: number;
  /** Completed requests (any status) in the interval. */
  requests: number;
  /** Failed requests (error kinds, not HTTP status) in the interval. */
  errors: number;
  /** Responses with a status >= 400 (or anything not 2xx/3xx). */
  non2xx: number;
  p50: number;
  p75: number;
  p90: number;
  p99: number;
  mean: number;
  max: number;
  bytesRead: number;
  bytesWritten: number;
  lateSends: number;
  /** Requests in flight at the end of the interval, summed over workers. */
  inFlight: number;
  /** Open connections at the end of the interval. */
  connections: number;
  statusCodes: Record<string, number>;
}

/** Telemetry of a target process or a Redis server, sampled per interval. */
export interface TelemetrySeries {
  /** e.g. "target", "target#2", "redis". */
  name: string;
  kind: "process" | "redis";
  samples: Array<{
    tMs: number;
    cpuPercent?: number;
    rssBytes?: number;
    opsPerSec?: number;
    hits?: number;
    misses?: number;
  }>;
}

/** The result of one run of one load against one target. */
export interface RunResult {
  /** Unique within a results file, e.g. "cache/high" or "attack". */
  name: string;
  /** Variant (e.g. "no-cache", "redis-cache") and load (e.g. "burst") names when part of an experiment. */
  variant?: string;
  load?: string;
  /** Value of the swept parameter when part of a sweep. */
  sweep?: { parameter: string; value: number };
  /** Repeat index (0-based) when the experiment repeats runs. */
  repeat?: number;
  url: string;
  model: LoadModel;
  /** The validated attack configuration, as JSON. */
  config: Record<string, unknown>;
  startedAt: string;
  /** Measured duration (excludes warm-up). */
  durationSec: number;
  warmupSec: number;
  /** Completed requests (responses received, any status), excluding warm-up. */
  requests: number;
  /** requests / durationSec. */
  rps: number;
  /** Requested rate for open models (req/s), null for closed models. */
  targetRps: number | null;
  /** Share of sent requests that got a 2xx/3xx response, 0..1. */
  successRate: number;
  latencyMs: LatencySummaryMs;
  /** For the throughput model: latency measured from the actual send time. Null otherwise. */
  uncorrectedLatencyMs: LatencySummaryMs | null;
  percentiles: PercentilePoint[];
  uncorrectedPercentiles: PercentilePoint[] | null;
  /** oha-style equal-width buckets from fastest to slowest. */
  histogram: HistogramBucket[];
  /** Log-spaced buckets (8 per decade) from fastest to slowest, for charts; absent in older files. */
  logHistogram?: HistogramBucket[];
  /** Base64 HdrHistogram encoding (microseconds) of the whole run, for re-analysis. */
  histogramEncoded: string;
  statusCodes: Record<string, number>;
  errors: Partial<Record<ErrorKind, number>>;
  /** A bounded map of distinct error messages per kind with their counts. */
  errorMessages: Record<string, Record<string, number>>;
  bytesRead: number;
  bytesWritten: number;
  /** Sends that could not go out at their intended time (open models). */
  lateSends: number;
  /** Sends dropped because they were later than the bound. */
  droppedSends: number;
  /** True when late sends exceed 1% of sends: the generator, not the target, limited the run. */
  generatorBound: boolean;
  connects: number;
  /** Connections closed by the server (Connection: close or EOF) and reopened. */
  reconnects: number;
  connectTimeMs: { min: number; mean: number; max: number; p99: number } | null;
  intervals: IntervalResult[];
  workers: number;
  /** Index of the interval after which latency is stable (warm-up over), or null if never. */
  stabilizedAtMs: number | null;
  telemetry?: TelemetrySeries[];
  /** Path of the raw request log, when requested. */
  logFile?: string;
}

/** Live numbers of a run in progress, for the progress line (sent a few times a second). */
export interface AttackProgress {
  elapsedSec: number;
  /** Planned length including warm-up, null when only a count bounds the run. */
  totalSec: number | null;
  requests: number;
  rps: number;
  p99Ms: number;
  errors: number;
}

/** Pass/fail of one threshold, e.g. `p99 < 200ms`. */
export interface ThresholdResult {
  expression: string;
  run: string;
  actual: number;
  ok: boolean;
}

/** Where the run happened, for the report header. */
export interface EnvironmentInfo {
  loadlab: string;
  deno: string;
  v8: string;
  typescript: string;
  os: string;
  arch: string;
  cpu: string;
  cores: number;
  hostname?: string;
}

/** The whole `results.json`. */
export interface ResultsFile {
  schema: "loadlab.results/v1";
  createdAt: string;
  environment: EnvironmentInfo;
  experiment: {
    name: string;
    description?: string;
    /** Source text of the experiment file (or the command line for `attack`). */
    source?: string;
    /** Name of the baseline variant for change-in-% columns. */
    baseline?: string;
  };
  runs: RunResult[];
  thresholds: ThresholdResult[];
}
