/**
 * @module
 * Statistics recomputed from a run's per-interval HDR histograms: `cutWarmup` (`warmup: auto`) and
 * `phaseStats`, at interval resolution (an interval counts toward the part it starts in). Pure.
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
export interface PhaseSpan {
  name: string;
  durationMs: number;
}

/** The counters intervals carry, summed; errors by kind and server-bound from `detail` (null if missing). */
type IntervalTotals = ReturnType<typeof totalsOf>;

function totalsOf(intervals: IntervalResult[]) {
  const t = { ...emptyIntervalCounts(), detail: emptyIntervalDetail(), spanMs: 0 };
  for (const iv of intervals) {
    addIntervalCounts(t, iv);
    addIntervalDetail(t.detail, iv);
    t.spanMs += iv.durationMs;
  }
  return t;
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

/** Whether every interval with responses carries its histogram (else percentiles cannot be exact). */
function histogramsComplete(intervals: IntervalResult[]): boolean {
  return intervals.every((iv) => iv.requests === 0 || typeof iv.histogramEncoded === "string");
}

function encodingsOf(intervals: IntervalResult[]): string[] {
  return intervals.flatMap((iv) => (iv.requests > 0 && iv.histogramEncoded ? [iv.histogramEncoded] : []));
}

/** The run's totals from the intervals starting at `atMs` (`warmup: auto`); as is without histograms. */
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
      latencyMs: histogramsComplete(ivs)
        ? summarizeMs(mergeEncoded(encodingsOf(ivs)))
        : unmeasuredMs(summarizeMs(mergeEncoded([]))),
    };
    startMs += phase.durationMs;
    return result;
  });
}
