/**
 * @module
 * The result of one run of one load against one target, as `results.json` holds it: what ran (URL,
 * model, configuration, target), the totals (requests, latency summary and distribution, status codes,
 * errors by kind with their messages, bytes), the open-model verdict (late, server-bound and dropped
 * sends, the pre-connected pool, the generator's warm-up, the transport), and the series over time
 * (intervals, telemetry, phases, flows) and the same numbers per endpoint. Pure; results/schema/results.ts
 * puts runs in a file.
 */
import { wsResultSchema } from "./ws.ts";
import { z } from "zod";
import {
  count,
  counts,
  histogramBucketSchema,
  histogramEncoding,
  latencySummarySchema,
  LOAD_MODELS,
  num,
  percentilePointSchema,
  sweepPointSchema,
} from "./values.ts";
import { flowResultSchema, intervalSchema, phaseResultSchema, telemetrySchema } from "./series.ts";
import { runProfileSchema } from "./profile.ts";
import { steeringSchema } from "./steering.ts";
import { endpointResultSchema } from "./endpoint.ts";

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
  /**
   * Variant and load name when part of an experiment: a file's target is a variant in results (the
   * `targets:` key of the experiment file names the variants compared).
   */
  variant: z.string().optional(),
  load: z.string().optional(),
  /** Value of the swept parameter, and of the second one in a grid. */
  sweep: sweepPointSchema.optional(),
  sweep2: sweepPointSchema.optional(),
  /** Repeat index (0-based) when the experiment repeats runs. */
  repeat: z.number().int().min(0).optional(),
  /** Stopped early (Ctrl-C, target died): the numbers cover only part of the planned run. */
  incomplete: z.boolean().optional(),
  /**
   * Stopped early by a threshold with `abortOnFail` (results/thresholds/abort.ts), judged while the load
   * ran: its expression, the measured time it failed at (s after the warm-up) and the value it saw; or by
   * a k6 script's `exec.test.abort()` (`testAbort`, its message). Such a run is also `incomplete`.
   */
  abortedBy: z.looseObject({
    threshold: z.string(),
    atSec: z.number(),
    actual: num,
    /** The message of the k6 script's `exec.test.abort()` that stopped it (no threshold did). */
    testAbort: z.string().optional(),
  }).optional(),
  /**
   * Changes made while the load ran (pause, rate, connections, end of a phase, stop), or replayed from a
   * recorded run, in order: the run followed this schedule, not only its configuration.
   */
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
  durationSec: z.number(),
  warmupSec: z.number().default(0),
  /** Completed requests (responses received, any status), excluding warm-up; `drained` included. */
  requests: count,
  /**
   * Of `requests`, responses that arrived after the load's end, during the graceful stop (the drain):
   * their latency is the run's, but they were not served within the measured window. Absent in older files.
   */
  drained: count.optional(),
  /** The achieved rate: (requests - drained) / durationSec, served per second over the load window. */
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
  /**
   * Streamed answers (gRPC server streams of two messages or more): how many, and their first message's
   * latency from the same intended send as `latencyMs` (which times each whole stream), with its HDR
   * encoding (µs) so shards add exactly. Absent when the run had none.
   */
  firstMessage: z.looseObject({
    streams: count,
    latencyMs: latencySummarySchema,
    histogramEncoded: histogramEncoding,
    /** `warmup: auto` cut the run's warm-up after it ran, and not these: they still include it. */
    warmupIncluded: z.boolean().optional(),
  }).optional(),
  /** oha-style equal-width buckets from fastest to slowest. */
  histogram: z.array(histogramBucketSchema).default([]),
  /** Log-spaced buckets (8 per decade), for charts; absent in older files. */
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
  transport: z.enum(["epoll", "deno", "io_uring"]).optional(),
  /**
   * Why the transport asked for was not used: epoll (`--transport epoll` or `auto`) for `deno` (https:,
   * not Linux, no FFI), or io_uring for `epoll` (https:, an open model, no io_uring here).
   */
  transportFallback: z.string().optional(),
  /** The HTTP version spoken (`protocol: auto` resolved by ALPN); absent in files from before HTTP/2. */
  protocol: z.enum(["http1", "h2", "h2c"]).optional(),
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
  /**
   * Workers whose data rows ran out (`whenDone: stop`, or `order: unique`): each stopped starting
   * arrivals there, so the run may have sent less than its load asked for.
   */
  dataRanOutWorkers: count.optional(),
  /**
   * Workers ended because they did not stop past the graceful stop (code that never yields, such as a
   * capture's regexp backtracking without end); the run is `incomplete`; their counts since their last sample
   * come from their heartbeat.
   */
  stuckWorkers: count.optional(),
  /**
   * Answers the stuck workers counted after their last sample: among `requests` (and their failed
   * statuses among the failures), but not in any latency, which ended with the worker.
   */
  unrecordedLatencies: count.optional(),
  /**
   * Workers whose isolate ended on its own during the load (a session script's `Deno.exit` or
   * `process.exit`); the run is `incomplete`, their share stopped there.
   */
  exitedWorkers: count.optional(),
  /**
   * loadlab's own memory (its RSS, workers included) passed its limit (`maxMemoryMb`, else one chosen from
   * the machine): `rssMb` as seen, and the `workers` still running then, ended there as stuck ones are
   * (what they counted kept, what they had in flight `unfinished`); the run is `incomplete`.
   */
  memoryCut: z.strictObject({ limitMb: z.number(), rssMb: z.number(), workers: count }).optional(),
  /**
   * Why a count ended before its count (the run is `incomplete`): `maxDuration`, its max duration passed
   * (k6's `maxDuration`); `idle`, every session waited on its own code (not a request, not `s.sleep`)
   * longer than the request timeout, so nothing would ever be sent again.
   */
  endedBy: z.enum(["maxDuration", "idle"]).optional(),
  /** What went wrong in a session script's teardown() after the load (a throw, its time limit, an exit). */
  teardownError: z.string().optional(),
  /**
   * The kernel's TCP counters of the generator's host over the run (deltas; this host, all processes,
   * not only this run): accept-queue overflows and drops, SYNs sent again, retransmission timeouts and
   * segments. Absent where they cannot be read (not Linux) and in older files.
   */
  hostTcp: z.looseObject({
    listenOverflows: count,
    listenDrops: count,
    synRetrans: count.optional(),
    timeouts: count.optional(),
    retransSegs: count.optional(),
  }).optional(),
  /**
   * What the rest of the host did over the run (runner/stats/host_cpu.ts): other processes' CPU in cores,
   * the % of the run some task waited for a core, and the host's cores. Absent where they cannot be read
   * (not Linux) and in older files.
   */
  hostCpu: z.looseObject({
    otherCores: z.number().nonnegative(),
    stallPct: z.number().nonnegative().optional(),
    cores: z.number().positive(),
  }).optional(),
  connects: count.default(0),
  /** Connections closed by the server (Connection: close or EOF) and reopened. */
  reconnects: count.default(0),
  /**
   * Re-sends of requests the server refused unprocessed (HTTP/2 GOAWAY above its last stream id): each
   * request counts once, as its final outcome (answered, or failed by kind); absent in older files.
   */
  retried: count.optional(),
  /**
   * Requests still unanswered when the graceful stop ran out, cut by the experiment's own stop
   * (`gracefulStop`): shown, never among the failures of `successRate` nor lost. Older files counted them
   * as errors of kind `unfinished`.
   */
  unfinished: count.optional(),
  connectTimeMs: z.looseObject({ min: num, mean: num, max: num, p99: num }).nullable().default(null),
  /** https: TLS handshake time per connection, apart from the TCP connect (`connectTimeMs`). */
  tlsMs: z.looseObject({ min: num, mean: num, max: num, p99: num }).nullable().optional(),
  /**
   * https: what the run's first handshake negotiated and how: the client (`deno` = Deno.startTls,
   * `node:tls` for --insecure or a client certificate), ALPN, and the version and cipher where the
   * client exposes them (null otherwise); `insecure` when verification was skipped.
   */
  tls: z.looseObject({
    client: z.string(),
    alpn: z.string().nullable(),
    version: z.string().nullable(),
    cipher: z.string().nullable(),
    insecure: z.boolean(),
    /** New connections offered a saved session (`--tls-resume on` on the openssl client). */
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
  /** Numbers per endpoint (request name), sorted as the run's endpoint table; absent in older files. */
  endpoints: z.array(endpointResultSchema).optional(),
  targetInfo: targetInfoSchema.optional(),
  /**
   * CPU profiles of the target's processes over the run (`profile: cpu`), one per process. Their numbers
   * are "profiled": the sampling profiler costs the target some throughput (docs/PROFILES.md).
   */
  profiles: z.array(runProfileSchema).optional(),
  /**
   * Counter deltas of the target over the run (proxy hits/misses/bypasses, staleHits, limited, ...), warm-up
   * requests included (the counters are cumulative).
   */
  targetStats: z.record(z.string(), z.number()).optional(),
  /** The same counters from the warm-up's end (a snapshot then) to the run's end; only with a warm-up. */
  targetStatsMeasured: z.record(z.string(), z.number()).optional(),
  /**
   * The first run after loadlab started its target (scenarios/cold_start.ts): ms from the first process's
   * spawn to listening (null when not observed), to ready, to the first 2xx (null: none of the probe
   * requests got one), the latency of the probe requests sent one at a time to `path` (null: failed), and
   * ms from spawn to this run's start. `start` counts the starts of this variant, from 1.
   */
  coldStart: z.looseObject({
    start: z.number().int().min(1),
    path: z.string(),
    listeningMs: z.number().nullable(),
    readyMs: z.number(),
    first2xxMs: z.number().nullable(),
    firstRequestsMs: z.array(z.number().nullable()),
    runStartMs: z.number(),
  }).optional(),
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
