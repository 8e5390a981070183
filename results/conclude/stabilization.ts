/**
 * @module
 * Detects when a run's latency stopped drifting (JIT warm-up, cache filling, connection pools growing), so
 * the report can mark "stable from t = X s" and readers can ignore the warm-up part. Pure: intervals in,
 * a start time out. The reference is the median p50 of the last third of the run, on the reasoning that
 * the end of a run is the steady state if there is one; a rolling median of ~4 intervals smooths single
 * noisy intervals without hiding a trend.
 */

import type { IntervalResult } from "../mod.ts";
import { MIN_STABILIZATION_INTERVALS } from "../stats.ts";
import { median } from "../stats.ts";

/** Rolling window length, in intervals (~1 s at the default 250 ms). */
export const STABILIZATION_WINDOW = 4;
const RELATIVE_BAND = 0.2;
const ABSOLUTE_BAND_MS = 0.2;

/**
 * The start (ms) of the first interval from which the rolling p50 stays within ±20% (or ±0.2 ms, whichever
 * is larger) of the median p50 of the last third of the run, starting at an interval that is itself in that
 * band; 0 for a run stable from the start. Null when there are fewer than 8 non-empty intervals, or when
 * latency does not even stay in the band over the last third itself (the reference would then describe no
 * steady state). Empty intervals are skipped.
 */
export function detectStabilization(intervals: IntervalResult[]): number | null {
  const busy = intervals.filter((interval) => interval.requests > 0);
  const n = busy.length;
  if (n < MIN_STABILIZATION_INTERVALS) return null;
  const lastThirdStart = n - Math.ceil(n / 3);
  const referenceMs = median(busy.slice(lastThirdStart).map((interval) => interval.p50));
  const toleranceMs = Math.max(referenceMs * RELATIVE_BAND, ABSOLUTE_BAND_MS);
  const windows = n - STABILIZATION_WINDOW + 1;
  let stableFrom = windows; // index of the first window of the in-band suffix; `windows` = none in band
  for (let i = windows - 1; i >= 0; i--) {
    const rolling = median(busy.slice(i, i + STABILIZATION_WINDOW).map((interval) => interval.p50));
    if (Math.abs(rolling - referenceMs) > toleranceMs) break;
    stableFrom = i;
  }
  if (stableFrom > lastThirdStart || stableFrom === windows) return null;
  // A window's median ignores its one warm first value, so the suffix may start an interval early: begin
  // at the first interval that is itself in the band (noisy intervals later on are still tolerated).
  while (stableFrom < lastThirdStart && Math.abs(busy[stableFrom].p50 - referenceMs) > toleranceMs) {
    stableFrom++;
  }
  return busy[stableFrom].startMs;
}
