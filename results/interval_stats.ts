/**
 * @module
 * Stats from interval histograms (`cutWarmup`, `phaseStats`); an interval counts in the part it starts in.
 */
import type { IntervalResult, PhaseResult, RunResult } from "./mod.ts";
import { generatorSaturation } from "./conclude/generator_saturation.ts";
import { saturated, servedRps, verdict } from "./conclude/served_rate.ts";
import {
  addIntervalCounts,
  addIntervalDetail,
  emptyIntervalCounts,
  emptyIntervalDetail,
  successRateOf,
} from "./interval_counts.ts";
import { latencyBlock, mergeEncoded, summarizeMs } from "./histogram.ts";
import { unmeasuredMs } from "./conclude/responses.ts";

/** A phase of an open-model load, in schedule order; phases follow each other from the measured start. */
interface PhaseSpan {
  /** Unnamed: `phase N`, counted from 1. */
  name?: string;
  durationMs: number;
}

/** The counters intervals carry, summed; errors by kind and server-bound from `detail` (null if missing). */
type IntervalTotals = ReturnType<typeof intervalTotals>;

/**
 * Intervals added into one: counters, `detail`, `spanMs`, and `histogram()`, their encodings added, null when
 * one with responses carries none (its percentiles cannot be exact): phases, the warm-up cut, shards.
 */
export function intervalTotals(intervals: IntervalResult[]) {
  const t = { ...emptyIntervalCounts(), detail: emptyIntervalDetail(), spanMs: 0 };
  for (const iv of intervals) {
    addIntervalCounts(t, iv);
    addIntervalDetail(t.detail, iv);
    t.spanMs += iv.durationMs;
  }
  const measured = intervals.filter((iv) => iv.requests > 0);
  const exact = measured.every((iv) => iv.histogramEncoded);
  return { ...t, histogram: () => (exact ? mergeEncoded(measured.map((iv) => iv.histogramEncoded!)) : null) };
}

/** Splits `total` errors over `mix`'s kinds in proportion (largest remainder). */
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

/** The run's totals from the intervals starting at `atMs` (`warmup: auto`); as is without histograms. */
export function cutWarmup(run: RunResult, atMs: number): RunResult {
  const kept = run.intervals.filter((iv) => iv.startMs >= atMs);
  if (kept.length === 0) {
    throw new RangeError(`cutWarmup: no interval starts at or after ${atMs} ms in run "${run.name}"`);
  }
  const t = intervalTotals(kept);
  const total = t.histogram();
  if (total === null) return run;
  const errors = errorsOf(t, run);
  const durationSec = t.spanMs / 1000;
  const sends = t.requests + t.errors + run.droppedSends + (run.unfinished ?? 0);
  const serverBound = t.detail.serverBoundSends ?? run.serverBoundSends ?? 0;
  const rps = servedRps(t.requests, t.drained, durationSec);
  const full = saturated({ rps, targetRps: run.targetRps, durationSec, intervals: kept });
  return {
    ...run,
    warmupAuto: true,
    warmupSec: run.warmupSec + kept[0].startMs / 1000,
    // An endpoint keeps no histogram per interval, nor do streams' first messages: they say so.
    ...(run.endpoints ? { endpoints: run.endpoints.map((e) => ({ ...e, warmupIncluded: true })) } : {}),
    ...(run.firstMessage ? { firstMessage: { ...run.firstMessage, warmupIncluded: true } } : {}),
    durationSec,
    requests: t.requests,
    drained: t.drained,
    rps,
    successRate: successRateOf(t, 0),
    unjudged: t.unjudged || undefined,
    ...latencyBlock(total),
    statusCodes: t.statusCodes,
    errors,
    bytesRead: t.bytesRead,
    bytesWritten: t.bytesWritten,
    lateSends: t.lateSends,
    ...verdict(t.lateSends, serverBound, sends, full, generatorSaturation(kept)?.bound),
  };
}

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

/** Per-phase statistics of an open-model run, exact from the interval histograms. */
export function phaseStats(run: RunResult, phases: PhaseSpan[]): PhaseResult[] {
  if (phases.length === 0) return [];
  const groups = intervalsByPhase(run.intervals, phases);
  let startMs = 0;
  return phases.map((phase, i) => {
    const t = intervalTotals(groups[i]), histogram = t.histogram();
    const errors = errorsOf(t, run);
    const result: PhaseResult = {
      name: phase.name ?? `phase ${i + 1}`,
      startMs,
      durationMs: phase.durationMs,
      requests: t.requests,
      rps: servedRps(t.requests, t.drained, t.spanMs / 1000),
      successRate: successRateOf(t, Number.NaN),
      timeouts: errors.timeout ?? 0,
      failedStatus: t.failedStatus,
      statusCodes: t.statusCodes,
      errors,
      latencyMs: histogram ? summarizeMs(histogram) : unmeasuredMs(summarizeMs(mergeEncoded([]))),
    };
    startMs += phase.durationMs;
    return result;
  });
}
