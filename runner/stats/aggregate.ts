/**
 * @module
 * The main-isolate side of the statistics: workers' `IntervalSample`s, in any order, complete an interval
 * once all reported; encodings merge exactly after the load, so no merging competes with sending.
 */

import type { AttackProgress, IntervalResult } from "../../results/mod.ts";
import { mergeEncoded } from "../../results/histogram.ts";
import type { IntervalSample } from "./sample.ts";
import {
  addSample,
  addToComplete,
  type CompleteInterval,
  completeInterval,
  emptyAccumulator,
  type IntervalAccumulator,
  intervalResult,
  reopened,
  settleInterval,
} from "./interval_accumulator.ts";
import type { EndpointDelta, IntervalDelta } from "../../results/export/interval_delta.ts";
import { sumValues } from "../../results/interval_counts.ts";
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
/** The most endpoints the live line names. */
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
    if (this.#lastIndex > lastMeasured) this.#foldInto(lastMeasured);
    const out: IntervalResult[] = [];
    for (let index = 0; index <= last; index++) {
      const startMs = index * this.#intervalMs;
      const leftMs = durationMs - startMs;
      const spanMs = leftMs > 0 && leftMs < this.#intervalMs ? leftMs : this.#intervalMs;
      out.push(intervalResult(startMs, spanMs, this.#complete.get(index), this.#keepIntervalHistograms));
    }
    return out;
  }

  #foldInto(target: number): void {
    const into = this.#complete.get(target) ?? completeInterval(emptyAccumulator());
    this.#complete.set(target, into);
    for (const [index, done] of this.#complete) {
      if (index <= target) continue;
      addToComplete(into, reopened(done), false);
      this.#complete.delete(index);
    }
    this.#lastIndex = target;
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
