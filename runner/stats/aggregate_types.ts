/**
 * @module
 * The shapes around `RunAggregator` (aggregate.ts): its options and live figures.
 */
import type { AttackProgress } from "../../results/mod.ts";
import type { IntervalDelta } from "../../results/export/interval_delta.ts";

/** Numbers shown on the live progress line. */
export type LiveStats = Omit<AttackProgress, "elapsedSec" | "totalSec">;
/** One of the busiest endpoints on the live line. */
export type LiveEndpoint = NonNullable<AttackProgress["endpoints"]>[number];

export interface AggregatorOptions {
  intervalMs: number;
  uncorrected: boolean;
  /** The requested rate of an open or throughput run (null: closed), for the served-rate verdict. */
  requestedRps?: number | null;
  /** Keep each interval's merged histogram encoding for the results (default true); each endpoint's too. */
  intervalHistograms?: boolean | "endpoints";
  /** The run's endpoints, index for index with the samples' `endpoints`; absent: none kept. */
  endpoints?: ReadonlyArray<{ name: string; method: string; tags: Record<string, string>; requests: number }>;
  /** Endpoints named at run time (a script's), added by name up to `MAX_ENDPOINTS`; `endpoints` is empty. */
  namedEndpoints?: boolean;
  /** Workers whose samples are added (`add`'s `workerIndex` counts from 0); default 1. */
  workers?: number;
  /** How long after its end an interval may take folded ones at `finish`; default 5 s (the graceful stop). */
  foldWindowMs?: number;
  /** Each complete interval and late sample, on the samples' path: only queue; `endEpochMs` is 0 here. */
  onInterval?(delta: IntervalDelta): void;
}
