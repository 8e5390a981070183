/**
 * @module
 * The main isolate's statistics: workers' `IntervalSample`s, in any order, complete an interval once all
 * reported, compact (errors and server-bound sends by kind); encodings merge after the load, not as it runs.
 */
import type { AttackProgress, IntervalResult } from "../../results/mod.ts";
import { encodeHistogram, mergeEncoded, summarizeMs } from "../../results/histogram.ts";
import { emptyHistogramEncoding, type EndpointSample, type IntervalSample } from "./sample.ts";
import {
  addCounts,
  addIntervalCounts,
  emptyIntervalCounts,
  type IntervalCounts,
  sumValues,
} from "../../results/interval_counts.ts";
import {
  addWsIntervalCounts,
  emptyWsIntervalCounts,
  type WsIntervalCounts,
} from "../../results/ws_totals.ts";
import { busierLoad, type GeneratorLoad } from "../../results/conclude/generator_saturation.ts";
import type { EndpointDelta, IntervalDelta } from "../../results/export/interval_delta.ts";
import { RunTotals, type RunTotalsOptions } from "./run_totals.ts";

/** Numbers shown on the live progress line. */
type LiveStats = Omit<AttackProgress, "elapsedSec" | "totalSec">;
/** One of the busiest endpoints on the live line. */
type LiveEndpoint = NonNullable<AttackProgress["endpoints"]>[number];

export interface AggregatorOptions extends RunTotalsOptions {
  intervalMs: number;
  /** The requested rate of an open or throughput run (null: closed), for the served-rate verdict. */
  requestedRps?: number | null;
  /** Workers whose samples are added (`add`'s `workerIndex` counts from 0); default 1. */
  workers?: number;
  /** How long after its end an interval may take folded ones at `finish`; default 5 s (the graceful stop). */
  foldWindowMs?: number;
  /** Each complete interval and late sample, on the samples' path: only queue; `endEpochMs` is 0 here. */
  onInterval?(delta: IntervalDelta): void;
}

const DEFAULT_FOLD_WINDOW_MS = 5_000;
const LIVE_ENDPOINTS = 3;

export class RunAggregator {
  readonly #intervalMs: number;
  readonly #keepIntervalHistograms: boolean;
  /** Intervals some worker has not reported yet: a handful at any time, each worker's encodings. */
  readonly #open = new Map<number, IntervalAccumulator>();
  /** Intervals every worker has reported: counters, latency figures, at most one merged encoding. */
  readonly #complete = new Map<number, CompleteInterval>();
  /** Per worker, the highest interval index it reported (-1 before its first): it closes them in order. */
  readonly #reported: number[];
  /** Without interval histograms, complete intervals whose merged encoding is kept for now, oldest first. */
  readonly #encodedTail: number[] = [];
  /** How many intervals back an encoding is kept without interval histograms (see `foldWindowMs`). */
  readonly #tailIntervals: number;
  #lastIndex = -1;
  readonly #totals: RunTotals;
  readonly #onInterval: AggregatorOptions["onInterval"];
  #requestedRps: number | null;
  readonly #endpointNames: string[];

  constructor(opts: AggregatorOptions) {
    this.#intervalMs = opts.intervalMs;
    this.#keepIntervalHistograms = opts.intervalHistograms !== false;
    this.#totals = new RunTotals(opts);
    this.#reported = new Array<number>(Math.max(1, opts.workers ?? 1)).fill(-1);
    // The live window (1 s) is read from these encodings too.
    const tailMs = Math.max(opts.foldWindowMs ?? DEFAULT_FOLD_WINDOW_MS, 1000);
    this.#tailIntervals = Math.ceil(tailMs / opts.intervalMs) + 1;
    this.#onInterval = opts.onInterval;
    this.#requestedRps = opts.requestedRps ?? null;
    this.#endpointNames = (opts.endpoints ?? []).map((e) => e.name);
  }

  /** Adds a worker's sample of one interval; out-of-order samples still land in their interval. */
  add(sample: IntervalSample, workerIndex = 0): void {
    this.#totals.add(sample);
    const index = sample.index;
    if (index > this.#lastIndex) this.#lastIndex = index;
    const done = this.#complete.get(index);
    if (done === undefined) this.#open.set(index, addSample(sample, this.#open.get(index)));
    else {
      const late = addSample(sample);
      addToComplete(done, late, true);
      this.#onInterval?.(intervalDelta(index, late, true, this.#endpointNames));
    }
    while (workerIndex >= this.#reported.length) this.#reported.push(-1);
    this.#reported[workerIndex] = Math.max(this.#reported[workerIndex], index);
    this.#completeThrough(Math.min(...this.#reported));
  }

  /** What the aggregator holds, for tests of its bookkeeping: nothing per worker once complete. */
  held(): { open: number; complete: number; workerEncodings: number; mergedEncodings: number } {
    let workerEncodings = 0, mergedEncodings = 0;
    for (const slot of this.#open.values()) workerEncodings += slot.histograms.length;
    for (const done of this.#complete.values()) {
      workerEncodings += done.pending.length;
      if (done.histogramEncoded !== null) mergedEncodings++;
    }
    return { open: this.#open.size, complete: this.#complete.size, workerEncodings, mergedEncodings };
  }

  /** Completes every open interval up to `last`; without interval histograms, drops old encodings. */
  #completeThrough(last: number): void {
    for (const index of [...this.#open.keys()].sort((a, b) => a - b)) {
      if (index > last) break;
      const slot = this.#open.get(index)!;
      this.#onInterval?.(intervalDelta(index, slot, false, this.#endpointNames));
      const done = completeInterval(slot);
      this.#complete.set(index, done);
      this.#open.delete(index);
      if (!this.#keepIntervalHistograms) this.#encodedTail.push(index);
    }
    const oldest = this.#lastIndex - this.#tailIntervals;
    while (this.#encodedTail.length > 0 && this.#encodedTail[0] < oldest) {
      const done = this.#complete.get(this.#encodedTail.shift()!);
      if (done === undefined) continue;
      settleInterval(done, false);
      done.histogramEncoded = null;
    }
  }

  /** Totals so far, with rps and p99 over the last ~1 s of complete intervals (before `nowIndex`). */
  live(nowIndex?: number): LiveStats {
    const current = nowIndex ?? this.#lastIndex;
    const windowLength = Math.max(1, Math.round(1000 / this.#intervalMs));
    const first = Math.max(0, current - windowLength);
    let requests = 0;
    const encodings: string[] = [];
    for (let index = first; index < current; index++) {
      const done = this.#complete.get(index);
      const slot = done === undefined ? this.#open.get(index) : reopened(done);
      if (slot === undefined) continue;
      requests += slot.requests;
      encodings.push(...slot.histograms);
    }
    const windowSec = ((current - first) * this.#intervalMs) / 1000;
    const p99Us = encodings.length > 0 ? mergeEncoded(encodings, true).getValueAtPercentile(99) : 0;
    const busiest = windowSec > 0 ? this.#busiestEndpoints(first, current, windowSec) : [];
    return {
      requests: this.#totals.requests(),
      errors: this.#totals.errors(),
      rps: windowSec > 0 ? requests / windowSec : 0,
      p99Ms: p99Us / 1000,
      ...(busiest.length > 0 ? { endpoints: busiest } : {}),
    };
  }

  /** The `LIVE_ENDPOINTS` endpoints of most responses in intervals `first` to `end`, with their rate. */
  #busiestEndpoints(first: number, end: number, windowSec: number): LiveEndpoint[] {
    return this.#totals.endpointRequestsIn(first, end).filter((e) => e.requests > 0)
      .sort((a, b) => b.requests - a.requests || (a.name < b.name ? -1 : 1))
      .slice(0, LIVE_ENDPOINTS)
      .map((e) => ({ name: e.name, rps: e.requests / windowSec }));
  }

  /** The rate the run asked for, when steering changed it from the plan's (runner/steering.ts). */
  setRequestedRps(rps: number | null): void {
    this.#requestedRps = rps;
  }

  /** The run's statistics; `durationSec` is the measured duration (after warm-up). */
  finish(durationSec: number) {
    // Every worker is done: what is still open has all the samples it will get.
    this.#completeThrough(Infinity);
    return this.#totals.stats(durationSec, this.#requestedRps, this.#denseIntervals(durationSec));
  }

  /** Intervals 0..last measured, gaps zero-filled; the stop's answers fold into the last: no false drop. */
  #denseIntervals(durationSec: number): IntervalResult[] {
    const durationMs = durationSec * 1000;
    const lastMeasured = Math.max(0, Math.ceil(durationMs / this.#intervalMs) - 1);
    const last = Math.min(this.#lastIndex, lastMeasured);
    if (this.#lastIndex > lastMeasured) {
      const into = this.#complete.get(lastMeasured) ?? completeInterval(emptyAccumulator());
      this.#complete.set(lastMeasured, into);
      for (const [index, done] of this.#complete) {
        if (index <= lastMeasured) continue;
        addToComplete(into, reopened(done), false);
        this.#complete.delete(index);
      }
      this.#lastIndex = lastMeasured;
    }
    const out: IntervalResult[] = [];
    for (let index = 0; index <= last; index++) {
      const startMs = index * this.#intervalMs;
      const leftMs = durationMs - startMs;
      const spanMs = leftMs > 0 && leftMs < this.#intervalMs ? leftMs : this.#intervalMs;
      out.push(intervalResult(startMs, spanMs, this.#complete.get(index), this.#keepIntervalHistograms));
    }
    return out;
  }
}

/** An interval for the exporter: counts by reference, encodings copied, endpoint parts gathered by name. */
function intervalDelta(
  index: number,
  slot: IntervalAccumulator,
  late: boolean,
  names: string[],
): IntervalDelta {
  const { endpoints, ...counts } = slot;
  const delta: IntervalDelta = { ...counts, index, endEpochMs: 0, histograms: [...slot.histograms], late };
  if (endpoints === undefined) return delta;
  // By name: a script's workers number their endpoints each in their own order.
  const byName = new Map<string, EndpointDelta>();
  for (const part of endpoints) {
    const name = part.name ?? names[part.endpoint];
    if (name === undefined) continue;
    let e = byName.get(name);
    if (e === undefined) byName.set(name, e = { name, requests: 0, errors: 0, histograms: [] });
    e.requests += part.requests;
    e.errors += sumValues(part.errors);
    if (part.histogram !== null) e.histograms.push(part.histogram);
  }
  delta.endpoints = [...byName.values()];
  return delta;
}

/** Counters of one interval index, summed over the workers that reported it. */
interface IntervalAccumulator extends IntervalCounts {
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
interface CompleteInterval extends Omit<IntervalAccumulator, "histograms"> {
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
