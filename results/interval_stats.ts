/**
 * @module
 * Statistics recomputed after a run from its per-interval HDR histograms (`histogramEncoded`), which add
 * exactly: `cutWarmup` for `warmup: auto` (totals from the stabilization time on) and `phaseStats` for
 * open-model phases (Artillery's per-phase summary). Both work at interval resolution: an interval counts
 * wholly toward the part of the run in which it starts, so a phase boundary that falls inside an interval
 * (a 1.1 s boundary with 250 ms intervals) is moved to that interval's start. Pure.
 *
 * Per-interval data hold requests, errors by kind, failed statuses (4xx/5xx), status codes, bytes, late and
 * server-bound sends, so those are recomputed exactly: a phase's timeouts are the timeouts of its own
 * intervals. Only files from before intervals carried `errorKinds` fall back to apportioning the interval
 * error counts by the whole run's mix of kinds (exact when the run has one kind), and to the whole run's
 * server-bound count for the verdict. Dropped sends, connects, connect times, uncorrected latency, streams'
 * first messages and error messages exist only for the whole run and are kept as they are.
 */
import type { IntervalResult, LatencySummaryMs, PhaseResult, RunResult } from "./mod.ts";
import { verdict } from "./conclude/bound_verdict.ts";
import { generatorSaturation } from "./conclude/generator_saturation.ts";
import { saturated, servedRps } from "./conclude/served_rate.ts";
import {
  addIntervalCounts,
  addIntervalDetail,
  emptyIntervalCounts,
  emptyIntervalDetail,
  type IntervalCounts,
  type IntervalDetail,
  successRateOf,
} from "./interval_counts.ts";
import { mergeEncoded, summarizeMs } from "./histogram.ts";
import { latencyBlock } from "./histogram_views.ts";

/** A phase of an open-model load, in schedule order; phases follow each other from the measured start. */
export interface PhaseSpan {
  name: string;
  durationMs: number;
}

/**
 * The counters that intervals carry, summed over some of them. Errors by kind and server-bound sends are
 * read from `detail` (null when an interval lacked them), not from the counters' zero-filled sum.
 */
interface IntervalTotals extends IntervalCounts {
  detail: IntervalDetail;
  spanMs: number;
}

function totalsOf(intervals: IntervalResult[]): IntervalTotals {
  const t: IntervalTotals = { ...emptyIntervalCounts(), detail: emptyIntervalDetail(), spanMs: 0 };
  for (const iv of intervals) {
    addIntervalCounts(t, iv);
    addIntervalDetail(t.detail, iv);
    t.spanMs += iv.durationMs;
  }
  return t;
}

/**
 * Splits `total` errors over the kinds of `mix` in proportion (largest remainder, so the parts add up
 * to `total`); all of them to the one kind when the mix has a single kind.
 */
export function apportionErrors(total: number, mix: Record<string, number>): Record<string, number> {
  const kinds = Object.entries(mix).filter(([, n]) => n > 0);
  const sum = kinds.reduce((a, [, n]) => a + n, 0);
  if (total <= 0 || sum === 0) return {};
  const shares = kinds.map(([kind, n]) => ({ kind, exact: (total * n) / sum }));
  const out: Record<string, number> = {};
  for (const s of shares) out[s.kind] = Math.floor(s.exact);
  let left = total - Object.values(out).reduce((a, b) => a + b, 0);
  for (const s of [...shares].sort((a, b) => (b.exact % 1) - (a.exact % 1))) {
    if (left-- <= 0) break;
    out[s.kind] += 1;
  }
  return out;
}

function errorsOf(t: IntervalTotals, run: RunResult): Record<string, number> {
  return t.detail.errorKinds ?? apportionErrors(t.errors, run.errors);
}

/** Whether every interval with responses carries its histogram (else percentiles cannot be exact). */
function histogramsComplete(intervals: IntervalResult[]): boolean {
  return intervals.every((iv) => iv.requests === 0 || typeof iv.histogramEncoded === "string");
}

function encodingsOf(intervals: IntervalResult[]): string[] {
  return intervals.flatMap((iv) => (iv.requests > 0 && iv.histogramEncoded ? [iv.histogramEncoded] : []));
}

/** A latency summary of NaN (written as null): the intervals carried no histograms to compute it from. */
function unknownLatency(): LatencySummaryMs {
  const zero = summarizeMs(mergeEncoded([]));
  return Object.fromEntries(Object.keys(zero).map((k) => [k, Number.NaN])) as LatencySummaryMs;
}

/**
 * The run with its totals recomputed from the intervals that start at or after `atMs` (the
 * stabilization time, for `warmup: auto`): requests, rate, success, latency summary, percentiles,
 * histogram buckets, status codes, errors, bytes and late sends. `intervals` stay whole (their times
 * unchanged, so the report still draws the warm-up and phases still line up) and `stabilizedAtMs` is
 * kept; `warmupSec` grows by the cut and `warmupAuto` is set. A run whose intervals carry no histograms
 * cannot be cut exactly and is returned as it is (without `warmupAuto`).
 */
export function cutWarmup(run: RunResult, atMs: number): RunResult {
  const kept = run.intervals.filter((iv) => iv.startMs >= atMs);
  if (kept.length === 0) {
    throw new RangeError(`cutWarmup: no interval starts at or after ${atMs} ms in run "${run.name}"`);
  }
  if (!histogramsComplete(kept)) return run;
  const total = mergeEncoded(encodingsOf(kept));
  const t = totalsOf(kept);
  const errors = errorsOf(t, run);
  const durationSec = t.spanMs / 1000;
  const sends = t.requests + t.errors + run.droppedSends + (run.unfinished ?? 0);
  const rps = servedRps(t.requests, t.drained, durationSec);
  const full = saturated({ rps, targetRps: run.targetRps, durationSec, intervals: kept });
  return {
    ...run,
    warmupAuto: true,
    warmupSec: run.warmupSec + kept[0].startMs / 1000,
    // An endpoint keeps no histogram per interval: its numbers stay whole, and say so.
    ...(run.endpoints ? { endpoints: run.endpoints.map((e) => ({ ...e, warmupIncluded: true })) } : {}),
    // Nor do streams' first messages.
    ...(run.firstMessage ? { firstMessage: { ...run.firstMessage, warmupIncluded: true } } : {}),
    durationSec,
    requests: t.requests,
    drained: t.drained,
    rps,
    successRate: successRateOf(t, 0),
    ...latencyBlock(total),
    statusCodes: t.statusCodes,
    errors,
    bytesRead: t.bytesRead,
    bytesWritten: t.bytesWritten,
    lateSends: t.lateSends,
    // The aggregator's rule; in files whose intervals carry no server-bound count the whole run's stands in.
    ...verdict(
      t.lateSends,
      t.detail.serverBoundSends ?? run.serverBoundSends ?? 0,
      sends,
      full,
      generatorSaturation(kept)?.bound,
    ),
  };
}

/** The intervals of each phase: those starting inside it; any past the last phase go to the last one. */
function intervalsByPhase(intervals: IntervalResult[], phases: PhaseSpan[]): IntervalResult[][] {
  const ends: number[] = [];
  let endMs = 0;
  for (const p of phases) ends.push(endMs += p.durationMs);
  const out = phases.map((): IntervalResult[] => []);
  for (const iv of intervals) {
    const i = ends.findIndex((end) => iv.startMs < end);
    out[i === -1 ? phases.length - 1 : i].push(iv);
  }
  return out;
}

/**
 * Per-phase statistics of an open-model run (Artillery's per-phase summary), exact from the interval
 * histograms. Phases start at the measured start (a fixed warm-up is a phase of its own before it) and follow
 * each other; each takes the intervals that start inside it. `rps` is over the time its intervals cover (the
 * phase's length unless the run stopped early), the drain left out. Latency is NaN when the intervals carry
 * no histograms.
 */
export function phaseStats(run: RunResult, phases: PhaseSpan[]): PhaseResult[] {
  if (phases.length === 0) return [];
  const groups = intervalsByPhase(run.intervals, phases);
  let startMs = 0;
  return phases.map((phase, i) => {
    const ivs = groups[i];
    const t = totalsOf(ivs);
    const errors = errorsOf(t, run);
    const result: PhaseResult = {
      name: phase.name,
      startMs,
      durationMs: phase.durationMs,
      requests: t.requests,
      rps: servedRps(t.requests, t.drained, t.spanMs / 1000),
      successRate: successRateOf(t, Number.NaN),
      timeouts: errors.timeout ?? 0,
      failedStatus: t.failedStatus,
      statusCodes: t.statusCodes,
      errors,
      latencyMs: histogramsComplete(ivs) ? summarizeMs(mergeEncoded(encodingsOf(ivs))) : unknownLatency(),
    };
    startMs += phase.durationMs;
    return result;
  });
}
