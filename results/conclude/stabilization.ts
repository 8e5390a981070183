/**
 * @module
 * When a run settled: latency and throughput flat against its last third's medians, no queue growing. Pure.
 */

import type { IntervalResult, RunResult } from "../mod.ts";
import { fitLine, median, MIN_STABILIZATION_INTERVALS } from "../stats.ts";
import { servedRps, servedShortfall } from "./served_rate.ts";
import { formatRounded } from "../text_format.ts";

/** Rolling window length, in intervals (~1 s at the default 250 ms). */
const STABILIZATION_WINDOW = 4;
const RELATIVE_BAND = 0.2;
const ABSOLUTE_BAND_MS = 0.2;

/** A run's stabilization: the start (ms) of its steady part, or why there is none. */
type Judgement = { atMs: number } | { reason: string };

/**
 * The start (ms) from which rolling p50 and served rate stay in their bands of the last third's medians,
 * 0 from the start; null for under 8 non-empty intervals, never settling, a trend, or served 10% short.
 */
export function detectStabilization(intervals: IntervalResult[], requestedRps: number | null = null) {
  const judged = judge(intervals, requestedRps);
  return "atMs" in judged ? judged.atMs : null;
}

/** The run's stabilization in words: "after 2.00 s", or why not ("never: latency kept rising ..."). */
export function stabilizationText(run: Pick<RunResult, "stabilizedAtMs" | "intervals" | "targetRps">) {
  if (run.stabilizedAtMs !== null) return `after ${(run.stabilizedAtMs / 1000).toFixed(2)} s`;
  const judged = judge(run.intervals, run.targetRps ?? null);
  return "reason" in judged ? judged.reason : "never (latency kept drifting)";
}

function judge(intervals: IntervalResult[], requestedRps: number | null): Judgement {
  const busy = intervals.filter((interval) => interval.requests > 0);
  const n = busy.length;
  if (n < MIN_STABILIZATION_INTERVALS) {
    const of = n === intervals.length ? `${n}` : `${n} of ${intervals.length}`;
    const which = n === intervals.length ? "intervals" : "intervals with responses";
    return { reason: `not judged: too few ${which}: ${of}, ${MIN_STABILIZATION_INTERVALS} needed` };
  }
  const p50s = busy.map((iv) => iv.p50);
  const latencyBand = (ref: number) => Math.max(ref * RELATIVE_BAND, ABSOLUTE_BAND_MS);
  const latencyFrom = flatFrom(p50s, latencyBand);
  if (latencyFrom === null) return { reason: "never (latency kept drifting)" };
  const rates = busy.map((iv) => servedRps(iv.requests, iv.drained ?? 0, iv.durationMs / 1000));
  const countSec = busy[0].durationMs / 1000;
  const rateBand = (ref: number) => Math.max(ref * RELATIVE_BAND, (2 * Math.sqrt(ref * countSec)) / countSec);
  const rateFrom = flatFrom(rates, rateBand);
  const from = Math.max(latencyFrom, rateFrom ?? 0);
  if (rateFrom === null || Math.abs(rise(rates.slice(from))) > rateBand(lastThirdMedian(rates))) {
    return { reason: "never (throughput kept drifting)" };
  }
  const steady = p50s.slice(from);
  if (Math.abs(rise(steady)) > latencyBand(lastThirdMedian(p50s))) {
    const [firstMs, lastMs] = [steady[0], steady[steady.length - 1]].map(formatRounded);
    const how = steady[steady.length - 1] > steady[0] ? "rising" : "falling";
    return { reason: `never: latency kept ${how} (p50 ${firstMs} ms to ${lastMs} ms)` };
  }
  const short = servedShort(intervals.filter((iv) => iv.startMs >= busy[from].startMs), requestedRps);
  if (short !== null) return { reason: short };
  return { atMs: busy[from].startMs };
}

/** The median of the last third of `values`: what the steady part's band is drawn around. */
const lastThirdMedian = (values: number[]) =>
  median(values.slice(values.length - Math.ceil(values.length / 3)));

/** The first index from which the rolling median stays in `band`; null if the end is out. */
function flatFrom(values: number[], band: (reference: number) => number): number | null {
  const n = values.length;
  const lastThirdStart = n - Math.ceil(n / 3);
  const reference = lastThirdMedian(values);
  const tolerance = band(reference);
  const windows = n - STABILIZATION_WINDOW + 1;
  let stableFrom = windows; // index of the first window of the in-band suffix; `windows` = none in band
  for (let i = windows - 1; i >= 0; i--) {
    if (Math.abs(median(values.slice(i, i + STABILIZATION_WINDOW)) - reference) > tolerance) break;
    stableFrom = i;
  }
  if (stableFrom > lastThirdStart || stableFrom === windows) return null;
  // A window's median ignores its one warm first value: begin at the first value itself in the band.
  while (stableFrom < lastThirdStart && Math.abs(values[stableFrom] - reference) > tolerance) stableFrom++;
  return stableFrom;
}

/** The least-squares line's change over the values when beyond three standard errors of the fit; else 0. */
function rise(values: number[]): number {
  if (values.length < 3) return 0;
  const { slope, slopeError } = fitLine(values.map((_, i) => i), values);
  return Math.abs(slope) > 3 * slopeError ? slope * (values.length - 1) : 0;
}

/** Why a steady part served well below the requested rate is no steady state; null when it kept up. */
function servedShort(steady: IntervalResult[], requestedRps: number | null): string | null {
  const sum = (of: (iv: IntervalResult) => number) => steady.reduce((a, iv) => a + of(iv), 0);
  const durationSec = sum((iv) => iv.durationMs) / 1000;
  const rps = servedRps(sum((iv) => iv.requests), sum((iv) => iv.drained ?? 0), durationSec);
  const short = servedShortfall({ rps, targetRps: requestedRps, durationSec });
  if (short === null) return null;
  const [got, asked] = [short.servedRps, short.requestedRps].map(formatRounded);
  return `never: served ${got} of ${asked} req/s requested (a queue growing)`;
}
