/**
 * @module
 * A run over time or by part: intervals, telemetry, phases and flows. Pure.
 */
import { z } from "zod";
import { count, counts, histogramEncoding, latencySummarySchema, num } from "./values.ts";

/** A failed-status count written `non2xx` reads as `failedStatus`. */
function renamedNon2xx(value: unknown): unknown {
  if (typeof value !== "object" || value === null || !("non2xx" in value) || "failedStatus" in value) {
    return value;
  }
  const { non2xx, ...rest } = value as Record<string, unknown>;
  return { ...rest, failedStatus: non2xx };
}

/** Statistics of one time interval (default 250 ms), merged across workers. */
export const intervalSchema = z.preprocess(
  renamedNon2xx,
  z.looseObject({
    /** Start relative to the start of the measured run (after warm-up). */
    startMs: z.number(),
    durationMs: z.number().positive(),
    /** Completed requests (any status). */
    requests: count,
    /** Of `requests`, those that arrived during the graceful stop's drain (folded into the last interval). */
    drained: count.optional(),
    /** Of `requests`, answers a stuck worker counted after its last sample, with no latency. */
    unrecordedLatencies: count.optional(),
    /** Failed requests (error kinds, not HTTP status). */
    errors: count,
    /** `errors` by kind (`ERROR_KINDS`), so a phase or a warm-up cut counts each kind exactly. */
    errorKinds: counts.optional(),
    /** Responses failed by status: 4xx, 5xx and below 200 (a 3xx is success); also read from `non2xx`. */
    failedStatus: count,
    /** Of `requests`, answers no status judges (an endpoint's `expectedStatuses: []`). */
    unjudged: count.optional(),
    p50: num,
    p75: num,
    p90: num,
    p99: num,
    mean: num,
    max: num,
    bytesRead: count,
    bytesWritten: count,
    lateSends: count,
    /** Sends that waited for a connection, every one busy at the server; may be absent. */
    serverBoundSends: count.optional(),
    /** Requests in flight at the end of the interval, summed over workers. */
    inFlight: count,
    /** Open connections at the end of the interval. */
    connections: count,
    /** Closed models: the busiest worker's % on a core and in the run queue, its latest timer (ms). */
    generatorBusyPct: z.number().optional(),
    generatorWaitPct: z.number().optional(),
    loopLagMs: z.number().optional(),
    /** Closed models: how long a response waited for the load worker to read it (ms, most over workers). */
    readyWaitMs: z.number().optional(),
    /** The busiest worker's mean wait for a core each time it was put on one (ms). */
    wakeWaitMs: z.number().optional(),
    statusCodes: counts.default({}),
    /** Base64 HDR histogram (microseconds) of this interval; absent with `--interval-histograms none`. */
    histogramEncoded: histogramEncoding.optional(),
  }),
);

/** Telemetry of a target process (`process`), a Redis server (`redis`) or a runtime sampler, per interval. */
export const telemetrySchema = z.looseObject({
  /** e.g. "target", "target#2", "redis". */
  name: z.string(),
  kind: z.enum(["process", "redis", "runtime"]),
  /** `runtime` series: "node" or "deno". */
  runtime: z.string().optional(),
  /** `runtime` series: the error that stopped the sampler (it stops at its first). */
  error: z.string().optional(),
  samples: z.array(z.looseObject({
    tMs: z.number(),
    cpuPercent: z.number().optional(),
    rssBytes: z.number().optional(),
    /** Process: % of the interval its main thread waited in the run queue for a core (schedstat). */
    runQueueWaitPct: z.number().optional(),
    /** Process: its main thread's mean wait for a core each time it was put on one (ms, schedstat). */
    runQueueWakeWaitMs: z.number().optional(),
    opsPerSec: z.number().optional(),
    hits: z.number().optional(),
    misses: z.number().optional(),
    /** Redis INFO: memory, clients (gauges); evictions, slow log entries (in the interval). */
    usedMemoryBytes: z.number().optional(),
    connectedClients: z.number().optional(),
    evictedKeys: z.number().optional(),
    slowlogAdded: z.number().optional(),
    /** Runtime: event-loop delay in the tick (ms), heap used, GC pauses by kind (count, total ms). */
    loopP50Ms: z.number().optional(),
    loopP99Ms: z.number().optional(),
    loopMaxMs: z.number().optional(),
    heapUsedBytes: z.number().optional(),
    gc: z.record(z.string(), z.looseObject({ count: z.number(), ms: z.number() })).optional(),
  })),
});

/** One phase of an open-model run, computed exactly from the interval histograms and counters. */
export const phaseResultSchema = z.preprocess(
  renamedNon2xx,
  z.looseObject({
    name: z.string(),
    startMs: z.number(),
    durationMs: z.number(),
    requests: count,
    rps: num,
    successRate: num,
    timeouts: count,
    /** 4xx and 5xx responses (and any status below 200); a 3xx is success (as in intervals). */
    failedStatus: count,
    statusCodes: counts.default({}),
    errors: counts.default({}),
    latencyMs: latencySummarySchema,
  }),
);

/** Sessions of one flow, with per-step latency. */
export const flowResultSchema = z.looseObject({
  name: z.string(),
  sessions: count,
  completed: count,
  failed: count,
  /** Sessions ended by a capture that found nothing (also in `failed`). */
  captureFailed: count.optional(),
  /** Arrivals that found no data row left (`whenDone: stop`), so ran no session. */
  noData: count.optional(),
  sessionMs: latencySummarySchema.nullable(),
  /** The session durations' HDR histogram (µs), so flows of loads run together pool exactly. */
  sessionHistogramEncoded: histogramEncoding.optional(),
  /** Loads run together (k6's scenarios): each one's completed sessions and their durations' histogram. */
  loads: z.record(
    z.string(),
    z.object({ completed: count, sessionHistogramEncoded: histogramEncoding.optional() }),
  ).optional(),
  steps: z.array(z.looseObject({
    label: z.string(),
    requests: count,
    errors: count,
    latencyMs: latencySummarySchema.nullable(),
    /** The step's checks (k6's checks): responses each passed and failed. */
    checks: z.array(z.looseObject({
      name: z.string(),
      passed: count,
      failed: count,
      /** Loads run together (k6's scenarios): each one's counts, which k6's `checks{scenario:x}` picks. */
      loads: z.record(z.string(), z.object({ passed: count, failed: count })).optional(),
    })).optional(),
  })),
});
