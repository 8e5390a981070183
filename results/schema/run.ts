/**
 * @module
 * The result of one run of one load against one target, as `results.json` holds it. Pure.
 */
import { wsResultSchema } from "./ws.ts";
import { z } from "zod";
import {
  count,
  counts,
  histogramBucketSchema,
  histogramEncoding,
  latencySummarySchema,
  nonNegative,
  num,
  percentilePointSchema,
  share,
  sweepPointSchema,
} from "./values.ts";
import { LOAD_MODELS } from "./keys.ts";
import { flowResultSchema, intervalSchema, phaseResultSchema, telemetrySchema } from "./series.ts";
import { runProfileSchema } from "./profile.ts";
import { steeringSchema } from "./steering.ts";

/** One endpoint's numbers in a run (`runs[i].endpoints`), with its HDR encoding so files add exactly. */
export const endpointResultSchema = z.looseObject({
  /** The request's `name:`, a flow step's label, else its method and path as written. */
  name: z.string(),
  method: z.string().optional(),
  /** User tags of its requests (a threshold may select by them). */
  tags: z.record(z.string(), z.string()).optional(),
  /** Inclusive status ranges its requests expect as their own (k6's `responseCallback`; `[]`: unjudged). */
  expectedStatuses: z.array(z.tuple([z.number().int(), z.number().int()]).readonly()).readonly().optional(),
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
  intervals: z.looseObject({
    requests: z.array(z.number()),
    errors: z.array(z.number()),
    /** Each interval's HDR encoding (null: no response), kept by `intervalHistograms: endpoints`. */
    histograms: z.array(histogramEncoding.nullable()).optional(),
  }),
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
  /** Variant and load name when part of an experiment. */
  variant: z.string().optional(),
  load: z.string().optional(),
  /** Value of the swept parameter, and of the second one in a grid. */
  sweep: sweepPointSchema.optional(),
  sweep2: sweepPointSchema.optional(),
  /** Repeat index (0-based) when the experiment repeats runs. */
  repeat: z.number().int().min(0).optional(),
  /** Stopped early (Ctrl-C, target died): the numbers cover only part of the planned run. */
  incomplete: z.boolean().optional(),
  /** Stopped early by an `abortOnFail` threshold (expression, time, value) or a k6 `exec.test.abort()`. */
  abortedBy: z.looseObject({
    threshold: z.string(),
    atSec: z.number(),
    actual: num,
    /** The message of the k6 script's `exec.test.abort()` that stopped it (no threshold did). */
    testAbort: z.string().optional(),
  }).optional(),
  /** Changes made while the load ran, or replayed, in order: the run followed this schedule. */
  steering: steeringSchema.optional(),
  /** A short probe run of a capacity search. */
  probe: z.boolean().optional(),
  /** Statistics cut at the stabilization time after the run (`warmup: auto`). */
  warmupAuto: z.boolean().optional(),
  /** `warmup: auto` was asked and latency never stabilized: the statistics include the warm-up. */
  warmupNotReached: z.boolean().optional(),
  url: z.string(),
  model: z.enum(LOAD_MODELS),
  /** The validated attack configuration, as JSON. */
  config: z.record(z.string(), z.unknown()).default({}),
  startedAt: z.string(),
  /** Measured duration (excludes warm-up). */
  durationSec: nonNegative,
  warmupSec: z.number().default(0),
  /** Completed requests (responses received, any status), excluding warm-up; `drained` included. */
  requests: count,
  /** Of `requests`, responses that arrived during the graceful stop after the load's end. */
  drained: count.optional(),
  /** The achieved rate: (requests - drained) / durationSec, served per second over the load window. */
  rps: nonNegative,
  /** Requested rate for open models (req/s), null for closed models. */
  targetRps: z.number().nullable().default(null),
  /** Share of sent requests that got a 2xx/3xx response, 0..1. */
  successRate: share,
  latencyMs: latencySummarySchema,
  /** For the throughput model: latency measured from the actual send time. Null otherwise. */
  uncorrectedLatencyMs: latencySummarySchema.nullable().default(null),
  percentiles: z.array(percentilePointSchema).default([]),
  uncorrectedPercentiles: z.array(percentilePointSchema).nullable().default(null),
  /** The uncorrected latency's HDR encoding (µs): ghz's report's buckets, timed as ghz times calls. */
  uncorrectedHistogramEncoded: histogramEncoding.optional(),
  /** gRPC server streams of two messages or more: their count and first message's latency (HDR, µs). */
  firstMessage: z.looseObject({
    streams: count,
    latencyMs: latencySummarySchema,
    histogramEncoded: histogramEncoding,
    /** `warmup: auto` cut the run's warm-up after it ran, and not these: they still include it. */
    warmupIncluded: z.boolean().optional(),
  }).optional(),
  /** oha-style equal-width buckets from fastest to slowest. */
  histogram: z.array(histogramBucketSchema).default([]),
  /** Log-spaced buckets (8 per decade), for charts; may be absent. */
  logHistogram: z.array(histogramBucketSchema).optional(),
  /** Base64 HdrHistogram encoding (microseconds) of the whole run, for re-analysis. */
  histogramEncoded: histogramEncoding.default(""),
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
  /** The generator, not the target, limited the run: late sends over 1% and above server-bound, or 10%. */
  generatorBound: z.boolean().default(false),
  /** Open models: sends that waited for a connection, every one busy at the server (none could open). */
  serverBoundSends: count.optional(),
  /** Server-bound sends over 1% of sends and the run not generator-bound: the target limited it. */
  serverBound: z.boolean().optional(),
  /** The socket transport the run used (`--transport`); absent when not recorded. */
  transport: z.enum(["epoll", "deno", "io_uring"]).optional(),
  /** Why the transport asked for was not used (https:, not Linux, no FFI, no io_uring). */
  transportFallback: z.string().optional(),
  /** The HTTP version spoken (`protocol: auto` resolved by ALPN); absent: `http1`. */
  protocol: z.enum(["http1", "h2", "h2c", "h3"]).optional(),
  /** HTTP/2: streams per connection asked for (`--streams`), and the most open at once on one connection. */
  streams: z.number().optional(),
  maxStreamsPerConnection: z.number().optional(),
  /** Connections open at t0 (opened before the first send; `--pre-connect`, or Little's law). */
  preConnected: count.optional(),
  /** The latency estimate (ms) the pre-connect pool was sized with: the target's connect round trip. */
  preConnectEstimateMs: z.number().nullable().optional(),
  /** Time spent before t0 warming the generator against its in-process sink; 0 when skipped. */
  generatorWarmupMs: z.number().optional(),
  /** Most connects to the target in flight at once (summed over workers), pre-connect included. */
  maxConnectsInFlight: count.optional(),
  /** Workers whose data rows ran out; each stopped starting arrivals there. */
  dataRanOutWorkers: count.optional(),
  /** Workers ended for not stopping past the graceful stop; the run is `incomplete`. */
  stuckWorkers: count.optional(),
  /** Of `requests`, answers no status judges (`expectedStatuses: []`): in no `successRate`. */
  unjudged: count.optional(),
  /** Answers stuck workers counted after their last sample: in `requests`, in no latency. */
  unrecordedLatencies: count.optional(),
  /** Workers whose isolate exited on its own (`Deno.exit`); the run is `incomplete`. */
  exitedWorkers: count.optional(),
  /** loadlab's RSS passed `maxMemoryMb`: the workers then running were ended; the run is `incomplete`. */
  memoryCut: z.strictObject({ limitMb: z.number(), rssMb: z.number(), workers: count }).optional(),
  /** Why a count ended short (`incomplete`): its `maxDuration` passed, or every session sat `idle`. */
  endedBy: z.enum(["maxDuration", "idle"]).optional(),
  /** A k6 script's setup() that threw or aborted the test: no load was sent; the run is `incomplete`. */
  setupError: z.string().optional(),
  /** How long the script's setup() and teardown() took together (ms): k6 samples its VUs through them. */
  hooksMs: z.number().nonnegative().optional(),
  /** How long iterations ran past the planned duration (ms): a graceful stop's tail, in k6's test run. */
  tailMs: z.number().nonnegative().optional(),
  /** What went wrong in a session script's teardown() after the load (a throw, its time limit, an exit). */
  teardownError: z.string().optional(),
  /** The host's kernel TCP counters over the run (deltas, all processes); absent off Linux. */
  hostTcp: z.looseObject({
    listenOverflows: count,
    listenDrops: count,
    synRetrans: count.optional(),
    timeouts: count.optional(),
    retransSegs: count.optional(),
  }).optional(),
  /** The rest of the host over the run: other processes' CPU in cores, % stalled for a core, cores. */
  hostCpu: z.looseObject({
    otherCores: z.number().nonnegative(),
    stallPct: z.number().nonnegative().optional(),
    cores: z.number().positive(),
  }).optional(),
  connects: count.default(0),
  /** Connections closed by the server (Connection: close or EOF) and reopened. */
  reconnects: count.default(0),
  /** Re-sends of requests refused unprocessed (HTTP/2 GOAWAY); each request counts once. */
  retried: count.optional(),
  /** Requests unanswered when the graceful stop ran out: shown, never failures nor lost. */
  unfinished: count.optional(),
  connectTimeMs: z.looseObject({ min: num, mean: num, max: num, p99: num }).nullable().default(null),
  /** https: TLS handshake time per connection, apart from the TCP connect (`connectTimeMs`). */
  tlsMs: z.looseObject({ min: num, mean: num, max: num, p99: num }).nullable().optional(),
  /** https: what the first handshake negotiated: client, ALPN, version, cipher; `insecure` if unverified. */
  tls: z.looseObject({
    client: z.string(),
    alpn: z.string().nullable(),
    version: z.string().nullable(),
    cipher: z.string().nullable(),
    insecure: z.boolean(),
    /** New connections offered a saved session (`--tls-resume on`: the openssl client, h3). */
    resume: z.boolean().optional(),
    /** Handshakes completed over the run and how many resumed a session; null where not counted. */
    handshakes: count.nullable().optional(),
    resumed: count.nullable().optional(),
    /** Why resumption asked for did not happen (the deno transport cannot resume). */
    resumeNote: z.string().optional(),
  }).optional(),
  intervals: z.array(intervalSchema).default([]),
  workers: z.number().default(1),
  /** Start of the interval after which latency is stable (warm-up over), or null if never. */
  stabilizedAtMs: z.number().nullable().default(null),
  telemetry: z.array(telemetrySchema).optional(),
  /** Path of the raw request log, when requested. */
  logFile: z.string().optional(),
  phases: z.array(phaseResultSchema).optional(),
  flows: z.array(flowResultSchema).optional(),
  /** WebSocket runs: handshakes, messages each way, fan-out, close codes (results/schema/ws.ts). */
  ws: wsResultSchema.optional(),
  /** Numbers per endpoint (request name), sorted as the run's endpoint table; may be absent. */
  endpoints: z.array(endpointResultSchema).optional(),
  targetInfo: targetInfoSchema.optional(),
  /** CPU profiles of the target's processes (`profile: cpu`); their numbers are "profiled". */
  profiles: z.array(runProfileSchema).optional(),
  /** Counter deltas of the target over the run, warm-up included (the counters are cumulative). */
  targetStats: z.record(z.string(), z.number()).optional(),
  /** The same counters from the warm-up's end (a snapshot then) to the run's end; only with a warm-up. */
  targetStatsMeasured: z.record(z.string(), z.number()).optional(),
  /** The first run after loadlab started its target: ms from spawn to listening, ready, first 2xx. */
  coldStart: z.looseObject({
    start: z.number().int().min(1),
    path: z.string(),
    listeningMs: z.number().nullable(),
    readyMs: z.number(),
    first2xxMs: z.number().nullable(),
    firstRequestsMs: z.array(z.number().nullable()),
    runStartMs: z.number(),
  }).optional(),
  /** One shard of a load split over generators (`--segment index/count`); `loadlab merge` adds them up. */
  segment: z.looseObject({
    index: z.number().int().min(0),
    count: z.number().int().min(1),
    startAt: z.string(),
    lateMs: z.number().optional(),
  }).optional(),
});
