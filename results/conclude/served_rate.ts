/**
 * @module
 * What loadlab concludes about the rate a run was served at, each statement with its preconditions beside
 * it. The achieved rate is the responses served within the load window per second of it: responses that
 * arrived after the load's end (the graceful stop's drain) are counted apart (`drained`) and never raise
 * it, so a server that queued half the requests no longer reads as having kept up once its queue drained.
 * A run fell short of its requested rate when it was served well below it, and it was saturated (the
 * server could not keep up, whatever the connections) when it fell short while its latency kept rising:
 * a queue growing at the server. Beside the achieved rate stand the drain and the requests the run's own
 * stop cut (`unfinished by gracefulStop`): shown, never failures of the target. Pure: numbers of the results
 * file in, statements out.
 */
import type { IntervalResult, RunResult } from "../mod.ts";
import { median } from "../stats.ts";
import { MIN_HELD_SENDS } from "./bound_verdict.ts";
import { intervalLatencySampled } from "./responses.ts";
import { formatCount } from "../text_format.ts";

/** Served below the requested rate by more than this share (beyond a short run's noise) is a shortfall. */
export const SHORTFALL_SHARE = 0.1;

/** The later third's median p50 over this multiple of the first third's is a latency that kept rising. */
const RISING_FACTOR = 2;

/** ...and at least this much higher (ms), so sub-millisecond jitter never reads as a queue. */
const RISING_MIN_MS = 1;

/** The achieved rate: responses served within the load window (`requests` less the drain) per second. */
export function servedRps(requests: number, drained: number, durationSec: number): number {
  return durationSec > 0 ? Math.max(0, requests - drained) / durationSec : 0;
}

/** A run served below its requested rate: both rates, req/s. */
export interface Shortfall {
  servedRps: number;
  requestedRps: number;
}

/**
 * The served and requested rates when an open or throughput run (one with a requested rate) was served
 * below it by more than `SHORTFALL_SHARE`, with at least `MIN_HELD_SENDS` responses missing over the
 * window (one missing response in a sparse run is not a shortfall); null otherwise. A server that keeps
 * up serves a window's sends less the last latency's worth still in flight at its end, so the share
 * stands well above a short run's in-flight tail.
 */
export function servedShortfall(run: Pick<RunResult, "rps" | "targetRps" | "durationSec">): Shortfall | null {
  const requested = run.targetRps;
  if (requested === null || !(requested > 0)) return null;
  const missing = (requested - run.rps) * run.durationSec;
  if (run.rps >= requested * (1 - SHORTFALL_SHARE) || missing < MIN_HELD_SENDS) return null;
  return { servedRps: run.rps, requestedRps: requested };
}

/**
 * True when the latency kept rising through the run: the median p50 of the last third of the intervals
 * with responses over twice (and 1 ms above) that of the first third. A warm-up makes latency fall, a
 * steady slow server keeps it flat; only a queue that grows makes it climb from start to end. Needs at
 * least three intervals with responses.
 */
export function latencyRising(intervals: IntervalResult[]): boolean {
  const busy = intervals.filter(intervalLatencySampled);
  if (busy.length < 3) return false;
  const third = Math.ceil(busy.length / 3);
  const firstMs = median(busy.slice(0, third).map((iv) => iv.p50));
  const lastMs = median(busy.slice(busy.length - third).map((iv) => iv.p50));
  return lastMs > firstMs * RISING_FACTOR && lastMs - firstMs >= RISING_MIN_MS;
}

/**
 * True when an open or throughput run saturated its server: served short of the requested rate
 * (`servedShortfall`) while latency kept rising (`latencyRising`). With connections free to open, such a
 * server never makes a send wait for a connection, so this, not the server-bound send count, names it.
 */
export function saturated(
  run: Pick<RunResult, "rps" | "targetRps" | "durationSec" | "intervals">,
): boolean {
  return servedShortfall(run) !== null && latencyRising(run.intervals);
}

/** A rate for a sentence: whole req/s, one decimal below 10 ("0.8", "176", "12,400"). */
export function formatRate(rps: number): string {
  return rps < 10 ? rps.toFixed(1) : formatCount(rps);
}

/**
 * The server-bound flag's label: with a shortfall, what was served of what was asked ("server-bound:
 * served 176 of 500 req/s"), so the flag carries the number that makes it; else "server-bound".
 */
export function serverBoundLabel(run: Pick<RunResult, "rps" | "targetRps" | "durationSec">): string {
  const short = servedShortfall(run);
  if (short === null) return "server-bound";
  return `server-bound: served ${formatRate(short.servedRps)} of ${formatRate(short.requestedRps)} req/s`;
}

/**
 * Beside an achieved rate: the responses that came after the load's end, which it leaves out ("714
 * drained after the load's end"); "" without any.
 */
export function drainedNote(run: Pick<RunResult, "drained">): string {
  const n = run.drained ?? 0;
  return n > 0 ? `${formatCount(n)} drained after the load's end` : "";
}

/**
 * Requests the experiment's own stop cut, in words ("250 unfinished by gracefulStop (0 s)"): still
 * unanswered when the graceful stop after the load's end ran out. Shown beside the counts, never as a
 * failure of the target; "" without any.
 */
export function unfinishedNote(run: Pick<RunResult, "unfinished" | "config">): string {
  const n = run.unfinished ?? 0;
  if (n === 0) return "";
  const stopMs = run.config.gracefulStopMs;
  const limit = typeof stopMs === "number" ? ` (${stopMs / 1000} s)` : "";
  return `${formatCount(n)} unfinished by gracefulStop${limit}`;
}
