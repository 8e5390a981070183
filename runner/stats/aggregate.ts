/**
 * @module
 * The main-isolate side of the statistics: every `IntervalSample` from every worker goes through
 * `RunAggregator.add`, keyed by its interval index, so one worker and N workers share one merge path and
 * samples may arrive in any order (workers are never assumed to be in lock-step). Run totals are merged as
 * samples arrive; per-interval histograms are kept as their compact encodings and only decoded at
 * `finish`, which keeps memory at a few hundred bytes per interval instead of a full histogram each.
 * At `finish` each interval's encodings are merged into one, which goes into the results
 * (`intervals[i].histogramEncoded`, unless `intervalHistograms` is off): analysis after the run (warm-up
 * cut, per-phase percentiles, shard merging) then adds histograms exactly instead of averaging percentiles.
 * Each interval keeps its errors by kind and its server-bound sends (runner/stats/interval_accumulator.ts),
 * so those too are exact per interval, merged across workers like every other counter.
 */

import type { ErrorKind, IntervalResult, RunResult } from "../../results/mod.ts";
import { addCounts, successRateOf } from "../../results/interval_counts.ts";
import {
  createHistogram,
  decodeHistogram,
  encodeHistogram,
  type Histogram,
  histogramBuckets,
  logHistogramBuckets,
  mergeEncoded,
  percentileCurve,
  summarizeMs,
} from "./histogram.ts";
import { type IntervalSample, OTHER_MESSAGES } from "./sample.ts";
import {
  addInterval,
  addSample,
  emptyAccumulator,
  type IntervalAccumulator,
  intervalResult,
  sumValues,
} from "./interval_accumulator.ts";
import { detectStabilization } from "./stabilization.ts";
import { verdict } from "./verdict.ts";

// runner/merge/merge_runs.ts judges merged runs with the same rule.
export { verdict } from "./verdict.ts";

/** The statistics part of a `RunResult`; the runner adds the identity and configuration fields. */
export type AggregateStats = Pick<
  RunResult,
  | "requests"
  | "rps"
  | "successRate"
  | "latencyMs"
  | "uncorrectedLatencyMs"
  | "percentiles"
  | "uncorrectedPercentiles"
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
  | "connectTimeMs"
  | "intervals"
  | "stabilizedAtMs"
>;

/** Numbers shown on the live progress line. */
export interface LiveStats {
  requests: number;
  errors: number;
  rps: number;
  p99Ms: number;
}

/** Distinct messages kept per error kind over the whole run; the rest count under "(other)". */
const MAX_MESSAGES_PER_KIND = 20;

/** Merges a kind's message counts, keeping at most `max` distinct messages plus "(other)". */
function addMessages(into: Record<string, number>, from: Record<string, number>, max: number): void {
  for (const [message, count] of Object.entries(from)) {
    const distinct = Object.keys(into).length - (OTHER_MESSAGES in into ? 1 : 0);
    const key = message in into || (message !== OTHER_MESSAGES && distinct < max) ? message : OTHER_MESSAGES;
    into[key] = (into[key] ?? 0) + count;
  }
}

/** Merges interval samples from any number of workers into run statistics. */
export class RunAggregator {
  readonly #intervalMs: number;
  readonly #uncorrected: boolean;
  readonly #keepIntervalHistograms: boolean;
  readonly #intervals = new Map<number, IntervalAccumulator>();
  /** Highest interval index seen, -1 before the first sample. */
  #lastIndex = -1;
  readonly #total: Histogram = createHistogram();
  readonly #rawTotal: Histogram | null;
  readonly #connectTotal: Histogram = createHistogram();
  #requests = 0;
  #non2xx = 0;
  #bytesRead = 0;
  #bytesWritten = 0;
  #lateSends = 0;
  #serverBoundSends = 0;
  #droppedSends = 0;
  #connects = 0;
  #reconnects = 0;
  readonly #statusCodes: Record<string, number> = {};
  readonly #errors: Partial<Record<ErrorKind, number>> = {};
  readonly #errorMessages: Record<string, Record<string, number>> = {};

  constructor(opts: { intervalMs: number; uncorrected: boolean; intervalHistograms?: boolean }) {
    if (!(opts.intervalMs > 0)) throw new RangeError(`intervalMs must be > 0, got ${opts.intervalMs}`);
    this.#intervalMs = opts.intervalMs;
    this.#uncorrected = opts.uncorrected;
    this.#keepIntervalHistograms = opts.intervalHistograms ?? true;
    this.#rawTotal = opts.uncorrected ? createHistogram() : null;
  }

  /** Adds one worker's sample of one interval; order and interleaving of workers do not matter. */
  add(sample: IntervalSample): void {
    this.#addTotals(sample);
    addSample(this.#slot(sample.index), sample);
  }

  #slot(index: number): IntervalAccumulator {
    let slot = this.#intervals.get(index);
    if (slot === undefined) {
      slot = emptyAccumulator();
      this.#intervals.set(index, slot);
      if (index > this.#lastIndex) this.#lastIndex = index;
    }
    return slot;
  }

  #addTotals(sample: IntervalSample): void {
    this.#requests += sample.requests;
    this.#non2xx += sample.non2xx;
    this.#bytesRead += sample.bytesRead;
    this.#bytesWritten += sample.bytesWritten;
    this.#lateSends += sample.lateSends;
    this.#serverBoundSends += sample.serverBoundSends;
    this.#droppedSends += sample.droppedSends;
    this.#connects += sample.connects;
    this.#reconnects += sample.reconnects;
    addCounts(this.#statusCodes, sample.statusCodes);
    addCounts(this.#errors, sample.errors);
    for (const [kind, messages] of Object.entries(sample.errorMessages)) {
      this.#errorMessages[kind] ??= {};
      addMessages(this.#errorMessages[kind], messages, MAX_MESSAGES_PER_KIND);
    }
    if (sample.requests > 0) this.#total.add(decodeHistogram(sample.histogram));
    if (this.#rawTotal !== null && sample.uncorrectedHistogram !== null && sample.requests > 0) {
      this.#rawTotal.add(decodeHistogram(sample.uncorrectedHistogram));
    }
    if (sample.connectHistogram !== null) this.#connectTotal.add(decodeHistogram(sample.connectHistogram));
  }

  /**
   * Totals so far, with rps and p99 over the last ~1 s of complete intervals (those before `nowIndex`;
   * without it, before the highest index seen, which may still be filling).
   */
  live(nowIndex?: number): LiveStats {
    const current = nowIndex ?? this.#lastIndex;
    const windowLength = Math.max(1, Math.round(1000 / this.#intervalMs));
    const first = Math.max(0, current - windowLength);
    let requests = 0;
    const encodings: string[] = [];
    for (let index = first; index < current; index++) {
      const slot = this.#intervals.get(index);
      if (slot === undefined) continue;
      requests += slot.requests;
      encodings.push(...slot.histograms);
    }
    const windowSec = ((current - first) * this.#intervalMs) / 1000;
    const p99Us = encodings.length > 0 ? mergeEncoded(encodings).getValueAtPercentile(99) : 0;
    return {
      requests: this.#requests,
      errors: sumValues(this.#errors),
      rps: windowSec > 0 ? requests / windowSec : 0,
      p99Ms: p99Us / 1000,
    };
  }

  /** The run's statistics; `durationSec` is the measured duration (after warm-up). */
  finish(durationSec: number): AggregateStats {
    const errors = sumValues(this.#errors);
    const sends = this.#requests + errors + this.#droppedSends;
    const raw = this.#rawTotal;
    const intervals = this.#denseIntervals(durationSec);
    return {
      requests: this.#requests,
      rps: durationSec > 0 ? this.#requests / durationSec : 0,
      successRate: successRateOf({ requests: this.#requests, errors, non2xx: this.#non2xx }, 0),
      latencyMs: summarizeMs(this.#total),
      uncorrectedLatencyMs: raw === null ? null : summarizeMs(raw),
      percentiles: percentileCurve(this.#total),
      uncorrectedPercentiles: raw === null ? null : percentileCurve(raw),
      histogram: histogramBuckets(this.#total),
      logHistogram: logHistogramBuckets(this.#total),
      histogramEncoded: encodeHistogram(this.#total),
      statusCodes: { ...this.#statusCodes },
      errors: { ...this.#errors },
      errorMessages: structuredClone(this.#errorMessages),
      bytesRead: this.#bytesRead,
      bytesWritten: this.#bytesWritten,
      lateSends: this.#lateSends,
      droppedSends: this.#droppedSends,
      ...verdict(this.#lateSends, this.#serverBoundSends, sends),
      connects: this.#connects,
      reconnects: this.#reconnects,
      connectTimeMs: this.#connectTimeMs(),
      intervals,
      stabilizedAtMs: detectStabilization(intervals),
    };
  }

  #connectTimeMs(): AggregateStats["connectTimeMs"] {
    const h = this.#connectTotal;
    if (h.totalCount === 0) return null;
    return {
      min: h.minNonZeroValue / 1000,
      mean: h.mean / 1000,
      max: h.getValueAtPercentile(100) / 1000,
      p99: h.getValueAtPercentile(99) / 1000,
    };
  }

  /**
   * Intervals 0..last measured index, gaps filled with zeros; the last one is cut to the measured
   * duration. Responses that ended after it (in-flight requests finishing during the graceful stop)
   * are folded into that last interval: they belong to the run's totals, and a separate sliver of an
   * interval would draw a false drop in throughput at the end of every chart.
   */
  #denseIntervals(durationSec: number): IntervalResult[] {
    const durationMs = durationSec * 1000;
    const lastMeasured = Math.max(0, Math.ceil(durationMs / this.#intervalMs) - 1);
    const last = Math.min(this.#lastIndex, lastMeasured);
    if (this.#lastIndex > lastMeasured) this.#foldInto(lastMeasured);
    const out: IntervalResult[] = [];
    for (let index = 0; index <= last; index++) {
      const startMs = index * this.#intervalMs;
      const leftMs = durationMs - startMs;
      const spanMs = leftMs > 0 && leftMs < this.#intervalMs ? leftMs : this.#intervalMs;
      out.push(intervalResult(startMs, spanMs, this.#intervals.get(index), this.#keepIntervalHistograms));
    }
    return out;
  }

  /** Adds every interval after `target` into `target` (counts summed, histograms merged). */
  #foldInto(target: number): void {
    const into = this.#slot(target);
    for (const [index, slot] of this.#intervals) {
      if (index <= target) continue;
      addInterval(into, slot);
      this.#intervals.delete(index);
    }
    this.#lastIndex = target;
  }
}
