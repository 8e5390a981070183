/**
 * @module
 * Pure open-model schedules, no clock inside: send i is due, in closed form (no drift), when the phases'
 * count N(t) reaches i (a ramp r0 -> r1 over D: r0*t + (r1-r0)*t^2/(2D)); rate 0 pauses.
 */
import type { Phase } from "../config_fields.ts";

export interface Schedule {
  readonly count: number;
  /** The arrivals planned, fractions kept (`count` sends at whole counts below it). */
  readonly arrivals: number;
  /** Length of the schedule in ms (the last phase's end). */
  readonly durationMs: number;
  /** Intended send time of send `i` (0 <= i < count), in ms from the start. */
  sendTimeMs(i: number): number;
}

interface PhaseSpan {
  startMs: number;
  durationMs: number;
  /** Cumulative (real-valued) arrivals before the phase. */
  startArrivals: number;
  arrivals: number;
  /** Rates in requests per ms. */
  r0: number;
  r1: number;
  /** 1 when arrival k is at (k + 1) periods (whole ms), as a timer's ticks are. */
  tick: number;
}

/** Builds the schedule of arrival-rate phases (Artillery's arrivalRate / rampTo). */
export function phasesSchedule(phases: readonly Phase[]): Schedule {
  const spans: PhaseSpan[] = [];
  let startMs = 0, startArrivals = 0;
  // A phase given per second is a constant rate each second, its first arrival a tick in.
  const each = (p: Phase) => p.perSecond?.map((n) => ({ durationMs: 1000, ratePerSec: n, tick: 1 })) ?? [p];
  for (const p of phases.flatMap<Phase & { tick?: number }>(each)) {
    const r0 = p.ratePerSec / 1000;
    const r1 = (p.rampToPerSec ?? p.ratePerSec) / 1000;
    const arrivals = ((r0 + r1) * p.durationMs) / 2;
    spans.push({ startMs, durationMs: p.durationMs, startArrivals, arrivals, r0, r1, tick: p.tick ?? 0 });
    startMs += p.durationMs;
    startArrivals += arrivals;
  }
  // Sends are at integer arrival counts 0, 1, 2, ... strictly below the total (guard float fuzz).
  const count = Math.max(0, Math.ceil(startArrivals - 1e-9));
  let cursor = 0;
  return {
    count,
    arrivals: startArrivals,
    durationMs: startMs,
    sendTimeMs(i: number): number {
      // Callers ask in increasing order; keep a cursor, fall back to a scan for random access.
      if (cursor >= spans.length || i < spans[cursor].startArrivals) cursor = 0;
      while (cursor < spans.length - 1 && i >= spans[cursor].startArrivals + spans[cursor].arrivals) cursor++;
      const s = spans[cursor];
      return s.startMs + timeOfArrival(s, i - s.startArrivals);
    },
  };
}

/** Time within a phase at which its cumulative arrivals reach `k` (solves the quadratic stably). */
function timeOfArrival(s: PhaseSpan, k: number): number {
  // A timer's whole-ms ticks; the last inside the span, so that the run's end does not cut it.
  if (s.tick) return Math.min((k + 1) * Math.floor(1 / s.r0), s.durationMs - 0.001);
  if (k <= 0) return 0;
  const a = (s.r1 - s.r0) / (2 * s.durationMs);
  if (Math.abs(a) < 1e-15) return s.r0 > 0 ? k / s.r0 : 0;
  const disc = s.r0 * s.r0 + 4 * a * k;
  const t = (2 * k) / (s.r0 + Math.sqrt(Math.max(0, disc)));
  return Math.min(t, s.durationMs);
}

/** A constant rate for a duration, or for exactly `count` sends. */
export function constantSchedule(
  ratePerSec: number,
  limit: { durationMs: number } | { count: number },
): Schedule {
  const periodMs = 1000 / ratePerSec;
  if ("count" in limit) {
    const { count } = limit;
    return { count, arrivals: count, durationMs: count * periodMs, sendTimeMs: (i) => i * periodMs };
  }
  return phasesSchedule([{ durationMs: limit.durationMs, ratePerSec }]);
}

/** Prepends a warm-up at the first phase's starting rate, so warm-up precedes what is measured. */
export function withWarmup(phases: readonly Phase[], warmupMs: number): Phase[] {
  if (warmupMs <= 0 || phases.length === 0) return [...phases];
  return [{ durationMs: warmupMs, ratePerSec: phases[0].ratePerSec, name: "warm-up" }, ...phases];
}

/** This worker's share of `total` when split over `workers` (the first ones take the remainder). */
export function shareOf(total: number, workerIndex: number, workers: number): number {
  return Math.floor(total / workers) + (workerIndex < total % workers ? 1 : 0);
}

/** A worker's stream slots: `streamsPerConnection` per connection, or its part of `concurrency`. */
export function slotsOf(
  ctx: { streamsPerConnection: number; concurrency?: number; workerIndex: number; workerCount: number },
  connections: number,
): number {
  const { workerIndex, workerCount } = ctx;
  const mine = shareOf(connections, workerIndex, workerCount);
  const n = ctx.concurrency;
  if (n === undefined) return ctx.streamsPerConnection * mine;
  let first = 0;
  for (let w = 0; w < workerIndex; w++) first += shareOf(connections, w, workerCount);
  let slots = 0;
  for (let j = first; j < first + mine; j++) slots += shareOf(n, j, connections);
  return slots;
}

/** One execution segment of a load split over several generators: `index` of `count`, from 0. */
interface Segment {
  index: number;
  count: number;
}

/**
 * Worker `workerIndex` of `workerCount` in `segment` in one global striping: send j goes to segment j mod
 * N, within it to worker k mod W (stripe s + N*w of N*W), so all stripes are the configured load once.
 */
export function stripeOf(segment: Segment | undefined, workerIndex: number, workerCount: number) {
  if (segment === undefined) return { workerIndex, workerCount };
  return {
    workerIndex: segment.index + segment.count * workerIndex,
    workerCount: segment.count * workerCount,
  };
}
