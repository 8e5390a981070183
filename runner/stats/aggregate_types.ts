/**
 * @module
 * The shapes around `RunAggregator` (runner/stats/aggregate.ts): its options, the statistics it returns
 * at the end of a run and the figures of the live progress line. Apart so the aggregator's file stays
 * about its bookkeeping.
 */
import type { AttackProgress, RunResult } from "../../results/mod.ts";
import type { IntervalDelta } from "../../results/export/interval_delta.ts";

/** The statistics part of a `RunResult`; the runner adds the identity and configuration fields. */
export type AggregateStats = Pick<
  RunResult,
  | "requests"
  | "drained"
  | "rps"
  | "successRate"
  | "latencyMs"
  | "uncorrectedLatencyMs"
  | "percentiles"
  | "uncorrectedPercentiles"
  | "firstMessage"
  | "histogram"
  | "logHistogram"
  | "histogramEncoded"
  | "statusCodes"
  | "errors"
  | "errorMessages"
  | "bytesRead"
  | "bytesWritten"
  | "lateSends"
  | "droppedSends"
  | "generatorBound"
  | "serverBoundSends"
  | "serverBound"
  | "connects"
  | "reconnects"
  | "retried"
  | "unfinished"
  | "connectTimeMs"
  | "tlsMs"
  | "intervals"
  | "stabilizedAtMs"
  | "endpoints"
>;

/** Numbers shown on the live progress line. */
export type LiveStats = Omit<AttackProgress, "elapsedSec" | "totalSec">;
/** One of the busiest endpoints on the live line. */
export type LiveEndpoint = NonNullable<AttackProgress["endpoints"]>[number];

/** How the aggregator slices and keeps a run. */
export interface AggregatorOptions {
  intervalMs: number;
  uncorrected: boolean;
  /**
   * The requested rate (req/s) of an open or throughput run, null for closed models: a run served well
   * below it with latency rising is server-bound and never stabilized (results/conclude/served_rate.ts).
   */
  requestedRps?: number | null;
  /** Keep each interval's merged histogram encoding for the results (default true). */
  intervalHistograms?: boolean;
  /**
   * The run's endpoints (runner/endpoint_table.ts), index for index with the samples' `endpoints`: the
   * results then hold numbers per endpoint. Absent: none are kept.
   */
  endpoints?: ReadonlyArray<{ name: string; method: string; tags: Record<string, string>; requests: number }>;
  /**
   * Endpoints named at run time (a session script's): each sample part carries its name and is added to
   * the endpoint of that name (workers number names in their own order); at most `MAX_ENDPOINTS` names,
   * the rest under `OTHER_ENDPOINT`. `endpoints` is then empty.
   */
  namedEndpoints?: boolean;
  /** Workers whose samples are added (`add`'s `workerIndex` counts from 0); default 1. */
  workers?: number;
  /**
   * How long after its end an interval may still have intervals folded into it at `finish` (responses
   * of the graceful stop, plus the workers' drain): without interval histograms, merged encodings older
   * than this behind the newest interval are dropped. Default 5 s; the runner passes its graceful stop.
   */
  foldWindowMs?: number;
  /**
   * Told of each interval once every worker has reported it, in index order, while the run goes on, and
   * of any sample that came later (`late`: counts to add, not an interval of its own). Its one listener,
   * runner/attack.ts, hands it to thresholds with `abortOnFail` and to metrics exporters. Called on the
   * samples' path, so it must only queue or count; `endEpochMs` is 0 here (the aggregator knows no wall
   * clock; runner/attack.ts sets it).
   */
  onInterval?(delta: IntervalDelta): void;
}
