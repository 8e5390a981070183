/**
 * @module
 * Thresholds that stop the run when they fail (`abortOnFail`, k6's name and semantics). While the load
 * runs, each interval every worker has reported is added here as it completes, and each such rule is
 * judged on the data so far: a whole-run rule (`p99<100ms`) on every measured interval up to now, as k6
 * judges its thresholds during a test; a windowed one (`p99<100ms over 10s`) on each window once it is
 * full (the windows of results/thresholds/windows.ts, a whole number of intervals each). Nothing is judged
 * before the rule's `delayAbortEval` of measured time (after the warm-up): the first seconds of a run
 * are its most variable, and k6 has the same delay for that reason. A lower bound on a whole run's count
 * (`requests>1000`) is left to the end: the run so far is short of it by nature. The first rule that fails is
 * the run's `abortedBy`: its expression, the measured time it failed at (the end of the interval that made
 * it fail) and the value it saw; the caller stops the load. Latencies come from the intervals' HDR
 * encodings: each decoded once into a running histogram for whole-run rules, merged per window for
 * windowed ones. Only a run with such a rule pays for this. Pure.
 */
import { ConfigError } from "../../validation/config_error.ts";
import type { RunResult } from "../schema/results.ts";
import { compare, type Threshold, windowMetric } from "./threshold.ts";
import { addEncoded, createHistogram, type Histogram, mergeEncoded, summarizeMs } from "../histogram.ts";
import { successRateOf } from "../interval_counts.ts";
import type { IntervalDelta } from "../export/interval_delta.ts";

/** A threshold that stops the run when it fails, not before `delayMs` of measured time. */
export interface AbortRule {
  threshold: Threshold;
  delayMs: number;
}

/**
 * What the watch reads of an interval the engine hands over during the run (the same `IntervalDelta`
 * a metrics exporter gets): its counts and its workers' HDR encodings of latency (µs).
 */
export type LiveInterval = Pick<
  IntervalDelta,
  "index" | "requests" | "errors" | "failedStatus" | "lateSends" | "droppedSends" | "histograms"
>;

/** Why and when a run was stopped (results' `abortedBy`). */
export type AbortedBy = NonNullable<RunResult["abortedBy"]>;

/** Additive counts of a stretch of intervals. */
interface Tally {
  requests: number;
  errors: number;
  failedStatus: number;
  lateSends: number;
  droppedSends: number;
}

interface WindowRule {
  rule: AbortRule;
  /** Intervals per window. */
  span: number;
  /** Windows being filled, by window number: counts and encodings. */
  open: Map<number, { tally: Tally; histograms: string[] }>;
}

const emptyTally = (): Tally => ({ requests: 0, errors: 0, failedStatus: 0, lateSends: 0, droppedSends: 0 });

function addTally(into: Tally, from: Tally): void {
  into.requests += from.requests;
  into.errors += from.errors;
  into.failedStatus += from.failedStatus;
  into.lateSends += from.lateSends;
  into.droppedSends += from.droppedSends;
}

/** Judges abort rules on the intervals of a run as they complete; see the module comment. */
export class AbortWatch {
  readonly #intervalMs: number;
  readonly #whole: AbortRule[];
  readonly #windowed: WindowRule[];
  readonly #total: Histogram = createHistogram();
  readonly #tally = emptyTally();
  #lastIndex = -1;

  constructor(rules: AbortRule[], intervalMs: number) {
    const onEndpoints = rules.find((r) =>
      r.threshold.selector !== undefined || r.threshold.kind !== undefined
    );
    if (onEndpoints) {
      throw new ConfigError([{
        path: `threshold "${onEndpoints.threshold.expression}"`,
        message:
          "abortOnFail judges the run's intervals, not an endpoint's or an error kind's: it is judged " +
          "after the run; drop abortOnFail for it, or the selector",
      }]);
    }
    this.#intervalMs = intervalMs;
    this.#whole = rules.filter((r) => r.threshold.windowMs === undefined);
    this.#windowed = rules.filter((r) => r.threshold.windowMs !== undefined).map((rule) => ({
      rule,
      span: Math.max(1, Math.ceil(rule.threshold.windowMs! / intervalMs)),
      open: new Map(),
    }));
  }

  /** Adds one complete interval; returns the first rule that now fails (after its delay), or null. */
  add(iv: LiveInterval): AbortedBy | null {
    this.#lastIndex = Math.max(this.#lastIndex, iv.index);
    const nowMs = (this.#lastIndex + 1) * this.#intervalMs;
    addTally(this.#tally, iv);
    if (this.#whole.length > 0) { for (const h of iv.histograms) addEncoded(this.#total, h); }
    for (const rule of this.#whole) {
      if (nowMs < rule.delayMs) continue;
      const actual = valueOf(rule.threshold.metric, this.#tally, nowMs, () => this.#total);
      if (fails(rule.threshold, actual) && !mayStillReach(rule.threshold, actual)) {
        return abortedBy(rule.threshold, nowMs, actual);
      }
    }
    for (const w of this.#windowed) {
      const failed = this.#addToWindows(w, iv, nowMs);
      if (failed) return failed;
    }
    return null;
  }

  /** Puts the interval in its window and judges every window now full; the first failure, if any. */
  #addToWindows(w: WindowRule, iv: LiveInterval, nowMs: number): AbortedBy | null {
    const number = Math.floor(iv.index / w.span);
    let window = w.open.get(number);
    if (window === undefined) w.open.set(number, window = { tally: emptyTally(), histograms: [] });
    addTally(window.tally, iv);
    window.histograms.push(...iv.histograms);
    let failed: AbortedBy | null = null;
    for (const [n, full] of w.open) {
      if ((n + 1) * w.span - 1 > this.#lastIndex) continue;
      w.open.delete(n);
      if (failed || nowMs < w.rule.delayMs) continue;
      const spanMs = w.span * this.#intervalMs;
      const actual = valueOf(
        w.rule.threshold.metric,
        full.tally,
        spanMs,
        () => mergeEncoded(full.histograms),
      );
      if (fails(w.rule.threshold, actual)) failed = abortedBy(w.rule.threshold, nowMs, actual);
    }
    return failed;
  }
}

/** Counts of a whole run, which only grow while it runs. */
const COUNTS = new Set(["requests", "errors", "failedStatus", "non2xx", "late", "lateSends", "dropped"]);

/**
 * Whether a whole run's count short of its rule may still meet it by the end (`requests>1000` at 200 so far,
 * `requests==500` at 300): the rest of the run only adds to it, so only the end can judge. A count past an
 * upper bound (`errors<10`, `errors==0`) stays past it, so that fails now.
 */
function mayStillReach(t: Threshold, actual: number): boolean {
  return COUNTS.has(t.metric) && (t.op === ">" || t.op === ">=" || (t.op === "==" && actual < t.value));
}

/** A value that says nothing (no requests for a latency or rate) never fails a rule. */
function fails(t: Threshold, actual: number): boolean {
  return Number.isFinite(actual) && !compare(actual, t.op, t.value);
}

function abortedBy(t: Threshold, atMs: number, actual: number): AbortedBy {
  return { threshold: t.expression, atSec: atMs / 1000, actual };
}

/**
 * A metric over a stretch of `spanMs` with these counts (latencies in ms, rates 0..1), as thresholds.ts reads
 * it.
 */
function valueOf(metric: string, tally: Tally, spanMs: number, histogram: () => Histogram): number {
  const kind = windowMetric(metric);
  if (kind?.kind === "latency") return tally.requests > 0 ? summarizeMs(histogram())[kind.key] : Number.NaN;
  if (kind?.kind === "rps") return tally.requests / (spanMs / 1000);
  if (kind?.kind === "success") {
    const rate = successRateOf(tally, Number.NaN);
    return kind.invert ? 1 - rate : rate;
  }
  switch (metric) {
    case "requests":
      return tally.requests;
    case "errors":
      return tally.errors;
    case "failedStatus":
    case "non2xx": // its earlier name
      return tally.failedStatus;
    case "late":
    case "lateSends":
      return tally.lateSends;
    case "dropped":
      return tally.droppedSends;
  }
  return Number.NaN;
}
