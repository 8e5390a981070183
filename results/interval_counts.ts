/**
 * @module
 * The counters of a run and how they add over workers, intervals and shards. Pure.
 */
import type { IntervalResult } from "./schema/results.ts";

/** The additive counters of a run, of an interval and of one worker's share of one. */
export type Counters = ReturnType<typeof emptyCounters>;

/** Zero of every counter, one field order (one shape); each is the run field of its name (schema/run.ts). */
export function emptyCounters() {
  return {
    requests: 0,
    failedStatus: 0,
    unjudged: 0,
    bytesRead: 0,
    bytesWritten: 0,
    lateSends: 0,
    serverBoundSends: 0,
    droppedSends: 0,
    connects: 0,
    reconnects: 0,
    drained: 0,
    retried: 0,
    unfinished: 0,
    unrecordedLatencies: 0,
  };
}

const COUNTER_KEYS = Object.keys(emptyCounters()) as Array<keyof Counters>;

/** Adds every counter of `from` into `into`; one `from` lacks (a results subset) adds nothing. */
export function addCounters(into: Counters, from: Partial<Counters>): void {
  for (const key of COUNTER_KEYS) into[key] += from[key] ?? 0;
}

/** The counters of intervals with their errors and status codes. */
export type IntervalCounts = ReturnType<typeof emptyIntervalCounts>;

/** Zero of every counter (a fresh `statusCodes` object each call). */
export function emptyIntervalCounts() {
  return { ...emptyCounters(), errors: 0, statusCodes: {} as Record<string, number> };
}

/** Adds counts by key (status codes, error kinds); a missing count adds nothing. */
export function addCounts(into: Record<string, number>, from: Record<string, number | undefined>): void {
  for (const [key, count] of Object.entries(from)) into[key] = (into[key] ?? 0) + (count ?? 0);
}

/** The sum of counts by key (errors by kind). */
export function sumValues(counts: Record<string, number | undefined>): number {
  let total = 0;
  for (const count of Object.values(counts)) total += count ?? 0;
  return total;
}

/** Adds the counters, errors and status codes of `from` (an interval of results or of the aggregator). */
export function addIntervalCounts(
  into: IntervalCounts,
  from: Partial<Counters> & Pick<IntervalCounts, "errors" | "statusCodes">,
): void {
  addCounters(into, from);
  into.errors += from.errors;
  addCounts(into.statusCodes, from.statusCodes);
}

/** Counters an interval may lack; null once an interval without them was added. */
interface IntervalDetail {
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

/** Expected answers over judged attempts (answers + errors); 1 when all are unjudged; `none`: no attempt. */
export function successRateOf(
  counts: Pick<IntervalCounts, "requests" | "errors" | "failedStatus"> & { unjudged?: number },
  none: number,
): number {
  const judged = counts.requests - (counts.unjudged ?? 0), attempted = judged + counts.errors;
  return attempted > 0 ? (judged - counts.failedStatus) / attempted : counts.unjudged ? 1 : none;
}
