/**
 * @module
 * A run's served rate (responses a second of its load window), whether short or saturated, who held it. Pure.
 */
import type { IntervalResult, RunResult } from "../mod.ts";
import { median } from "../stats.ts";
import { latencySampled } from "./responses.ts";
import { formatCount, formatRounded } from "../text_format.ts";

/** The fewest late (or waiting) sends that can name who limited a run. */
export const MIN_HELD_SENDS = 5;

/**
 * Who limited an open-model run with over 1% of `MIN_HELD_SENDS`+ sends held up: more late (generator) or
 * waiting for a connection (server); over half late names the generator, whose unread responses look busy.
 */
export function verdict(
  lateSends: number,
  serverBoundSends: number,
  sends: number,
  saturated = false,
  busyGenerator = false,
): Pick<RunResult, "generatorBound" | "serverBound" | "serverBoundSends"> {
  const mostLate = lateSends > 0.5 * sends;
  const generatorBound = busyGenerator || lateSends >= MIN_HELD_SENDS && lateSends > 0.01 * sends &&
      (lateSends >= serverBoundSends || mostLate) && (!saturated || mostLate);
  const waited = serverBoundSends >= MIN_HELD_SENDS && serverBoundSends > 0.01 * sends;
  return { generatorBound, serverBound: (waited || saturated) && !generatorBound, serverBoundSends };
}

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

/** The served and requested rates (req/s) of a run served short of its requested rate; null otherwise. */
export function servedShortfall(run: Pick<RunResult, "rps" | "targetRps" | "durationSec">) {
  const requested = run.targetRps;
  if (requested === null || !(requested > 0)) return null;
  const missing = (requested - run.rps) * run.durationSec;
  if (run.rps >= requested * (1 - SHORTFALL_SHARE) || missing < MIN_HELD_SENDS) return null;
  return { servedRps: run.rps, requestedRps: requested };
}

/** True when latency kept rising through the run (last third's p50 over twice the first's). */
export function latencyRising(intervals: IntervalResult[]): boolean {
  const busy = intervals.filter(latencySampled);
  if (busy.length < 3) return false;
  const third = Math.ceil(busy.length / 3);
  const firstMs = median(busy.slice(0, third).map((iv) => iv.p50));
  const lastMs = median(busy.slice(busy.length - third).map((iv) => iv.p50));
  return lastMs > firstMs * RISING_FACTOR && lastMs - firstMs >= RISING_MIN_MS;
}

/** True when an open run saturated its server: served short while latency kept rising. */
export function saturated(run: Pick<RunResult, "rps" | "targetRps" | "durationSec" | "intervals">): boolean {
  return servedShortfall(run) !== null && latencyRising(run.intervals);
}

/** The server-bound flag's label ("server-bound: served 176 of 500 req/s" where short). */
export function serverBoundLabel(run: Pick<RunResult, "rps" | "targetRps" | "durationSec">): string {
  const short = servedShortfall(run);
  if (short === null) return "server-bound";
  const [served, requested] = [short.servedRps, short.requestedRps].map(formatRounded);
  return `server-bound: served ${served} of ${requested} req/s`;
}

/** Beside an achieved rate: "714 drained after the load's end"; "" without any. */
export function drainedNote(run: Pick<RunResult, "drained">): string {
  const n = run.drained ?? 0;
  return n > 0 ? `${formatCount(n)} drained after the load's end` : "";
}

/** Requests the stop cut ("250 unfinished by gracefulStop (0 s)"); "" without any. */
export function unfinishedNote(run: Pick<RunResult, "unfinished" | "config">): string {
  const n = run.unfinished ?? 0;
  if (n === 0) return "";
  const stopMs = run.config.gracefulStopMs;
  const limit = typeof stopMs === "number" ? ` (${stopMs / 1000} s)` : "";
  return `${formatCount(n)} unfinished by gracefulStop${limit}`;
}
