/**
 * @module
 * One interval of a run on the main-isolate side: the counters of every worker's sample of that
 * interval index added up (runner/stats/aggregate.ts keeps one per index), its histograms kept as
 * encodings until the run ends, and the `IntervalResult` it becomes. Errors stay by kind here
 * (`errorKinds`), as do server-bound sends, so analysis after the run (the warm-up cut, per-phase
 * statistics) and `loadlab merge` count them exactly per interval instead of apportioning the run's mix.
 */
import type { IntervalResult } from "../../results/mod.ts";
import {
  addCounts,
  addIntervalCounts,
  emptyIntervalCounts,
  type IntervalCounts,
} from "../../results/interval_counts.ts";
import { encodeHistogram, mergeEncoded, summarizeMs } from "./histogram.ts";
import type { IntervalSample } from "./sample.ts";

/** Counters of one interval index, summed over the workers that reported it. */
export interface IntervalAccumulator extends IntervalCounts {
  errorKinds: Record<string, number>;
  serverBoundSends: number;
  inFlight: number;
  connections: number;
  histograms: string[];
}

/** An interval no worker reported yet. */
export function emptyAccumulator(): IntervalAccumulator {
  return {
    ...emptyIntervalCounts(),
    errorKinds: {},
    serverBoundSends: 0,
    inFlight: 0,
    connections: 0,
    histograms: [],
  };
}

/** The sum of counts by key (a sample's errors by kind). */
export function sumValues(counts: Record<string, number | undefined>): number {
  let total = 0;
  for (const count of Object.values(counts)) total += count ?? 0;
  return total;
}

/** Adds one interval's counts into another (gauges excepted: they are summed per sample, not folded). */
export function addInterval(
  into: IntervalAccumulator,
  from: Omit<IntervalAccumulator, "inFlight" | "connections">,
): void {
  addIntervalCounts(into, from);
  addCounts(into.errorKinds, from.errorKinds);
  into.serverBoundSends += from.serverBoundSends;
  into.histograms.push(...from.histograms);
}

/** Adds one worker's sample, gauges included. */
export function addSample(into: IntervalAccumulator, sample: IntervalSample): void {
  addInterval(into, {
    ...sample,
    errors: sumValues(sample.errors),
    errorKinds: sample.errors as Record<string, number>,
    histograms: sample.requests > 0 ? [sample.histogram] : [],
  });
  into.inFlight += sample.inFlight;
  into.connections += sample.connections;
}

/** The results interval of an accumulator (or of none: an interval with no sample is all zeros). */
export function intervalResult(
  startMs: number,
  durationMs: number,
  slot: IntervalAccumulator | undefined,
  keepHistogram: boolean,
): IntervalResult {
  const histogram = mergeEncoded(slot?.histograms ?? []);
  const summary = summarizeMs(histogram);
  return {
    startMs,
    durationMs,
    requests: slot?.requests ?? 0,
    errors: slot?.errors ?? 0,
    errorKinds: { ...(slot?.errorKinds ?? {}) },
    non2xx: slot?.non2xx ?? 0,
    p50: summary.p50,
    p75: summary.p75,
    p90: summary.p90,
    p99: summary.p99,
    mean: summary.mean,
    max: summary.max,
    bytesRead: slot?.bytesRead ?? 0,
    bytesWritten: slot?.bytesWritten ?? 0,
    lateSends: slot?.lateSends ?? 0,
    serverBoundSends: slot?.serverBoundSends ?? 0,
    inFlight: slot?.inFlight ?? 0,
    connections: slot?.connections ?? 0,
    statusCodes: { ...(slot?.statusCodes ?? {}) },
    ...(keepHistogram ? { histogramEncoded: encodeHistogram(histogram) } : {}),
  };
}
