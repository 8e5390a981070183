/**
 * @module
 * Thresholds stopping a run on failure (`abortOnFail`, as k6): judged per interval after `delayAbortEval`.
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

const TALLY_KEYS = ["requests", "errors", "failedStatus", "unjudged", "lateSends", "droppedSends"] as const;
type Tally = Record<typeof TALLY_KEYS[number], number>;

/** What the watch reads of an interval handed over during the run: counts and HDR encodings (µs). */
export type LiveInterval = Pick<IntervalDelta, "index" | "histograms" | typeof TALLY_KEYS[number]>;

export type AbortedBy = NonNullable<RunResult["abortedBy"]>;

interface WindowRule {
  rule: AbortRule;
  span: number;
  /** Windows being filled, by window number: counts and encodings. */
  open: Map<number, { tally: Tally; histograms: string[] }>;
}

const emptyTally = () => Object.fromEntries(TALLY_KEYS.map((key) => [key, 0])) as Tally;

function addTally(into: Tally, from: Tally): void {
  for (const key of TALLY_KEYS) into[key] += from[key];
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
      const merged = () => mergeEncoded(full.histograms);
      const actual = valueOf(w.rule.threshold.metric, full.tally, w.span * this.#intervalMs, merged);
      if (fails(w.rule.threshold, actual)) failed = abortedBy(w.rule.threshold, nowMs, actual);
    }
    return failed;
  }
}

/** Counts of a whole run, which only grow while it runs, by the metric names of threshold.ts. */
const COUNTS = new Map<string, (tally: Tally) => number>([
  ["requests", (t) => t.requests],
  ["errors", (t) => t.errors],
  ["failedStatus", (t) => t.failedStatus],
  ["non2xx", (t) => t.failedStatus],
  ["late", (t) => t.lateSends],
  ["lateSends", (t) => t.lateSends],
  ["dropped", (t) => t.droppedSends],
]);

/** Whether a count short of its rule may still meet it by the end (only the end judges those). */
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

/** A metric over `spanMs` with these counts (latencies in ms, rates 0..1), as threshold.ts reads it. */
function valueOf(metric: string, tally: Tally, spanMs: number, histogram: () => Histogram): number {
  const kind = windowMetric(metric);
  if (kind?.kind === "latency") return tally.requests > 0 ? summarizeMs(histogram())[kind.key] : Number.NaN;
  if (kind?.kind === "rps") return tally.requests / (spanMs / 1000);
  if (kind?.kind === "success") {
    const rate = successRateOf(tally, Number.NaN);
    return kind.invert ? 1 - rate : rate;
  }
  return COUNTS.get(metric)?.(tally) ?? Number.NaN;
}
