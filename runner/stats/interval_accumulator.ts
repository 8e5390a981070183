/**
 * @module
 * One interval on the main-isolate side: workers' samples added, then a compact `CompleteInterval` whose
 * encodings merge after the load; errors and server-bound sends stay by kind, for exact per-phase analysis.
 */
import type { IntervalResult } from "../../results/mod.ts";
import {
  addCounts,
  addIntervalCounts,
  emptyIntervalCounts,
  type IntervalCounts,
  sumValues,
} from "../../results/interval_counts.ts";
import { encodeHistogram, mergeEncoded, summarizeMs } from "../../results/histogram.ts";
import {
  addWsIntervalCounts,
  emptyWsIntervalCounts,
  type WsIntervalCounts,
} from "../../results/ws_totals.ts";
import { emptyHistogramEncoding, type EndpointSample, type IntervalSample } from "./sample.ts";
import { busierLoad, type GeneratorLoad } from "../../results/conclude/generator_saturation.ts";

/** Counters of one interval index, summed over the workers that reported it. */
export interface IntervalAccumulator extends IntervalCounts {
  errorKinds: Record<string, number>;
  inFlight: number;
  connections: number;
  histograms: string[];
  /** The workers' per-endpoint parts, kept only until the interval is handed on (metrics outputs). */
  endpoints?: EndpointSample[];
  /** A WebSocket run's workers' handshakes and messages, kept only until the interval is handed on. */
  ws?: WsIntervalCounts;
  /** Closed models: the busiest worker's thread in the interval (conclude/generator_saturation.ts). */
  generator?: GeneratorLoad;
}

/** The latency figures a results interval carries (ms). */
type IntervalLatency = Pick<IntervalResult, "p50" | "p75" | "p90" | "p99" | "mean" | "max">;

/** An interval every worker has reported: its counters, and its latency once settled. */
export interface CompleteInterval extends Omit<IntervalAccumulator, "histograms"> {
  /** Workers' encodings not merged yet: merging waits for the run's end, off the generator's core. */
  pending: string[];
  /** Valid once settled (no `pending` left). */
  latency: IntervalLatency;
  /** The merged encoding; null once dropped (kept only while a late sample or the fold may need it). */
  histogramEncoded: string | null;
}

const NO_LATENCY: IntervalLatency = { p50: 0, p75: 0, p90: 0, p99: 0, mean: 0, max: 0 };

export function emptyAccumulator(): IntervalAccumulator {
  return { ...emptyIntervalCounts(), errorKinds: {}, inFlight: 0, connections: 0, histograms: [] };
}

/** Counts by key in a copy V8 stores compactly (numeric keys assigned: a 2.6 KB elements store each). */
export function compactCounts(counts: Record<string, number>): Record<string, number> {
  return JSON.parse(JSON.stringify(counts));
}

type Folded = Omit<IntervalAccumulator, "histograms" | "inFlight" | "connections">;

/** Adds one interval's counts into another (gauges excepted: they are summed per sample, not folded). */
function addInterval(into: Folded, from: Folded): void {
  addIntervalCounts(into, from);
  addCounts(into.errorKinds, from.errorKinds);
}

/** Adds one worker's sample, gauges included; `into` (a new one: the sample as an accumulator of its own). */
export function addSample(sample: IntervalSample, into = emptyAccumulator()): IntervalAccumulator {
  addInterval(into, {
    ...sample,
    errors: sumValues(sample.errors),
    errorKinds: sample.errors as Record<string, number>,
  });
  if (sample.requests > 0) into.histograms.push(sample.histogram);
  if (sample.endpoints !== undefined) (into.endpoints ??= []).push(...sample.endpoints);
  if (sample.ws !== undefined) addWsIntervalCounts(into.ws ??= emptyWsIntervalCounts(), sample.ws);
  into.inFlight += sample.inFlight;
  into.connections += sample.connections;
  into.generator = busierLoad(into.generator, sample.generator);
  return into;
}

/** The complete form of an interval: counters compacted, its workers' encodings left to settle. */
export function completeInterval(slot: IntervalAccumulator): CompleteInterval {
  const { histograms, statusCodes, errorKinds, endpoints: _endpoints, ws: _ws, ...counts } = slot;
  return {
    ...counts,
    statusCodes: compactCounts(statusCodes),
    errorKinds: compactCounts(errorKinds),
    pending: histograms,
    latency: NO_LATENCY,
    histogramEncoded: null,
  };
}

/** Merges an interval's pending encodings into its latency figures; `encode: false` skips the deflate. */
export function settleInterval(done: CompleteInterval, encode = true): void {
  if (done.pending.length === 0) return;
  const all = done.histogramEncoded === null ? done.pending : [done.histogramEncoded, ...done.pending];
  const histogram = mergeEncoded(all, true);
  const { p50, p75, p90, p99, mean, max } = summarizeMs(histogram);
  done.latency = { p50, p75, p90, p99, mean, max };
  done.histogramEncoded = all.length === 1 ? all[0] : encode ? encodeHistogram(histogram) : null;
  done.pending = [];
}

/** Adds a late sample or a folded interval into a complete one (gauges only for the former). */
export function addToComplete(into: CompleteInterval, from: IntervalAccumulator, gauges: boolean): void {
  const hadRequests = into.requests > 0;
  addInterval(into, from);
  into.generator = busierLoad(into.generator, from.generator);
  if (gauges) {
    into.inFlight += from.inFlight;
    into.connections += from.connections;
  }
  if (from.histograms.length === 0) return;
  if (into.histogramEncoded === null && into.pending.length === 0 && hadRequests) return;
  into.pending.push(...from.histograms);
}

/** A complete interval as an accumulator again, to be folded into another. */
export function reopened(done: CompleteInterval): IntervalAccumulator {
  const { latency: _latency, histogramEncoded, pending, ...counts } = done;
  const own = histogramEncoded === null ? [] : [histogramEncoded];
  return { ...counts, histograms: done.requests > 0 ? [...own, ...pending] : [] };
}

/** The results interval of a complete interval (or of none: an interval with no sample is all zeros). */
export function intervalResult(
  startMs: number,
  durationMs: number,
  done: CompleteInterval | undefined,
  keepHistogram: boolean,
): IntervalResult {
  if (done !== undefined) settleInterval(done, keepHistogram);
  return {
    startMs,
    durationMs,
    requests: done?.requests ?? 0,
    ...(done?.drained ? { drained: done.drained } : {}),
    ...(done?.unrecordedLatencies ? { unrecordedLatencies: done.unrecordedLatencies } : {}),
    errors: done?.errors ?? 0,
    errorKinds: { ...(done?.errorKinds ?? {}) },
    failedStatus: done?.failedStatus ?? 0,
    ...(done?.unjudged ? { unjudged: done.unjudged } : {}),
    ...(done?.latency ?? NO_LATENCY),
    bytesRead: done?.bytesRead ?? 0,
    bytesWritten: done?.bytesWritten ?? 0,
    lateSends: done?.lateSends ?? 0,
    serverBoundSends: done?.serverBoundSends ?? 0,
    inFlight: done?.inFlight ?? 0,
    connections: done?.connections ?? 0,
    ...done?.generator,
    // A copy (results may be edited after the run) that stays compact: an hour is 14,400 of them.
    statusCodes: compactCounts(done?.statusCodes ?? {}),
    ...(keepHistogram ? { histogramEncoded: done?.histogramEncoded ?? emptyHistogramEncoding() } : {}),
  };
}
