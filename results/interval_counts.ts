/**
 * @module
 * The counters of a results interval that add up exactly, and how they add: across the workers that
 * reported one interval (runner/stats/aggregate.ts) and across the intervals of part of a run
 * (scenarios/interval_stats.ts: the warm-up cut, per-phase statistics). One definition, so a counter
 * added to intervals is summed the same way in both. Gauges (`inFlight`, `connections`) are sampled, not
 * summed, and are not among them. Errors by kind and server-bound sends are counters too, but files from
 * before they were recorded lack them: `IntervalDetail` sums them only while every interval has them, so
 * a sum is exact or absent, never an undercount. Pure.
 */
import type { IntervalResult } from "./schema.ts";

/** The additive counters of an interval. */
export type IntervalCounts = Pick<
  IntervalResult,
  "requests" | "errors" | "non2xx" | "bytesRead" | "bytesWritten" | "lateSends" | "statusCodes"
>;

/** Zero of every counter (a fresh `statusCodes` object each call). */
export function emptyIntervalCounts(): IntervalCounts {
  return { requests: 0, errors: 0, non2xx: 0, bytesRead: 0, bytesWritten: 0, lateSends: 0, statusCodes: {} };
}

/** Adds counts by key (status codes, error kinds); a missing count adds nothing. */
export function addCounts(into: Record<string, number>, from: Record<string, number | undefined>): void {
  for (const [key, count] of Object.entries(from)) into[key] = (into[key] ?? 0) + (count ?? 0);
}

/** Adds every counter of `from` into `into`. */
export function addIntervalCounts(into: IntervalCounts, from: IntervalCounts): void {
  into.requests += from.requests;
  into.errors += from.errors;
  into.non2xx += from.non2xx;
  into.bytesRead += from.bytesRead;
  into.bytesWritten += from.bytesWritten;
  into.lateSends += from.lateSends;
  addCounts(into.statusCodes, from.statusCodes);
}

/** Counters only newer intervals carry; null once an interval without them was added. */
export interface IntervalDetail {
  errorKinds: Record<string, number> | null;
  serverBoundSends: number | null;
}

/** The detail of no interval: known, all zero. */
export function emptyIntervalDetail(): IntervalDetail {
  return { errorKinds: {}, serverBoundSends: 0 };
}

/** Adds an interval's detail; a missing one makes that sum unknown (null) from then on. */
export function addIntervalDetail(
  into: IntervalDetail,
  from: Pick<IntervalResult, "errorKinds" | "serverBoundSends">,
): void {
  if (from.errorKinds === undefined) into.errorKinds = null;
  else if (into.errorKinds !== null) addCounts(into.errorKinds, from.errorKinds);
  if (from.serverBoundSends === undefined) into.serverBoundSends = null;
  else if (into.serverBoundSends !== null) into.serverBoundSends += from.serverBoundSends;
}

/** Responses with a 2xx status over attempts (responses + errors); `none` when nothing was attempted. */
export function successRateOf(
  counts: Pick<IntervalCounts, "requests" | "errors" | "non2xx">,
  none: number,
): number {
  const attempted = counts.requests + counts.errors;
  return attempted > 0 ? (counts.requests - counts.non2xx) / attempted : none;
}
