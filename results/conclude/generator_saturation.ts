/**
 * @module
 * Whether a closed-model run's own load worker was its queue, told by its thread (it hardly sleeps; timers
 * fire late or responses wait for it); a busy machine keeps those waits within tens of ms. Pure.
 */
import { defined } from "../../validation/defined.ts";
import type { IntervalResult } from "../schema/results.ts";

/** One interval's generator evidence, as a results interval carries it (results/schema/series.ts). */
export type GeneratorLoad =
  & Required<Pick<IntervalResult, "generatorBusyPct" | "generatorWaitPct" | "loopLagMs">>
  & Pick<IntervalResult, "readyWaitMs" | "wakeWaitMs">;

/** What an interval of a results file gives the judgement: its generator evidence and median latency (ms). */
type JudgedInterval = Partial<GeneratorLoad> & { p50?: number };

/** A thread running or waiting for a core this share (%) of an interval is saturated. */
export const SATURATED_PCT = 80;
/** Timers this late (ms) say the worker's event loop, not only the machine, held the run up. */
export const LATE_LOOP_MS = 100;
/** Fewest intervals with evidence to judge a run by: one busy interval (a connect storm) says nothing. */
const MIN_JUDGED_INTERVALS = 2;
/** A received response waiting for the worker this share of the median latency or more: its own queue. */
export const QUEUED_SHARE = 0.5;
/** ...and at least this long (ms): past what a busy machine's run queue alone holds a light worker. */
const QUEUED_MIN_MS = 50;
/** ...or this many times the worker's wait for a core at each wake-up (and `OWN_QUEUE_MIN_MS`). */
export const WAKE_WAITS = 4;
/** ...or this long (ms) while the worker itself ran on its core `SATURATED_PCT` of the interval. */
export const OWN_QUEUE_MIN_MS = 10;

/** The busier of two workers' (or shards') loads of one interval; its loop lag is the larger of both. */
export function busierLoad(
  a: GeneratorLoad | undefined,
  b: GeneratorLoad | undefined,
): GeneratorLoad | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  const busier = demandPct(b) > demandPct(a) ? b : a;
  const merged = { ...busier, loopLagMs: Math.max(a.loopLagMs, b.loopLagMs) };
  const readyWaitMs = Math.max(a.readyWaitMs ?? -1, b.readyWaitMs ?? -1);
  return readyWaitMs < 0 ? merged : { ...merged, readyWaitMs };
}

/** The generator evidence of a results interval; undefined when it has none (open models, older files). */
export function loadOf(interval: Partial<GeneratorLoad>): GeneratorLoad | undefined {
  const { generatorBusyPct, generatorWaitPct, loopLagMs, readyWaitMs, wakeWaitMs } = interval;
  if (generatorBusyPct === undefined || generatorWaitPct === undefined) return undefined;
  return {
    generatorBusyPct,
    generatorWaitPct,
    loopLagMs: loopLagMs ?? 0,
    ...defined({ readyWaitMs, wakeWaitMs }),
  };
}

function demandPct(load: GeneratorLoad): number {
  return load.generatorBusyPct + load.generatorWaitPct;
}

type GeneratorSaturation = NonNullable<ReturnType<typeof generatorSaturation>>;

/** The generator's saturation over `intervals`; null when none carries evidence. */
export function generatorSaturation(intervals: ReadonlyArray<JudgedInterval>) {
  let judged = 0, saturated = 0, busy = 0, wait = 0, lag = 0;
  let probed = 0, readyWaitMs = 0, p50Ms = 0;
  for (const interval of intervals) {
    const load = loadOf(interval);
    if (load === undefined) continue;
    judged++;
    if (isSaturated(load, interval.p50)) saturated++;
    busy += load.generatorBusyPct;
    wait += load.generatorWaitPct;
    lag = Math.max(lag, load.loopLagMs);
    if (load.readyWaitMs !== undefined && interval.p50 !== undefined && interval.p50 > 0) {
      probed++;
      readyWaitMs += load.readyWaitMs;
      p50Ms += interval.p50;
    }
  }
  if (judged === 0) return null;
  return {
    /** Intervals with evidence, and those whose busiest worker was saturated and late. */
    judged,
    saturated,
    /** Means over the judged intervals of the busiest worker's running and waiting shares (%). */
    busyPct: busy / judged,
    waitPct: wait / judged,
    /** The most its timers fired late over the run (ms). */
    loopLagMs: lag,
    /** Mean wait of a received response for the worker, mean median latency (ms); null: unmeasured. */
    readyWait: probed === 0 ? null : { waitMs: readyWaitMs / probed, p50Ms: p50Ms / probed },
    /** At least `MIN_JUDGED_INTERVALS` judged and most of them (more than half) saturated. */
    bound: judged >= MIN_JUDGED_INTERVALS && saturated * 2 > judged,
  };
}

/** Nearly no idle time, and late timers or responses waiting for the worker most of the latency. */
function isSaturated(load: GeneratorLoad, p50Ms: number | undefined): boolean {
  if (demandPct(load) < SATURATED_PCT) return false;
  if (load.loopLagMs >= LATE_LOOP_MS) return true;
  const waitedMs = load.readyWaitMs;
  if (waitedMs === undefined || p50Ms === undefined || !(p50Ms > 0) || waitedMs < QUEUED_SHARE * p50Ms) {
    return false;
  }
  return waitedMs >= busyMachineFloorMs(load);
}

/** The least ready wait (ms) that is the worker's own queue rather than a busy machine's run queue. */
function busyMachineFloorMs(load: GeneratorLoad): number {
  if (load.generatorBusyPct >= SATURATED_PCT) return OWN_QUEUE_MIN_MS;
  if (load.wakeWaitMs === undefined) return QUEUED_MIN_MS;
  return Math.max(OWN_QUEUE_MIN_MS, WAKE_WAITS * load.wakeWaitMs);
}

/** The evidence in words: "the load worker was saturated (...) in 8 of 8 intervals (...)". */
export function saturationText(s: GeneratorSaturation): string {
  const pct = (v: number) => `${Math.round(v)}%`;
  const ms = (v: number) => `${Math.round(v)} ms`;
  const ready = s.readyWait;
  const when = ready === null ? "" : ` or a received response waiting for it at least ` +
    `${pct(QUEUED_SHARE * 100)} of the median latency and ${ms(QUEUED_MIN_MS)} (or ${WAKE_WAITS} times its ` +
    `wait for a core at each wake-up), or ${ms(OWN_QUEUE_MIN_MS)} ` +
    `while it ran on its core ${SATURATED_PCT}% of the time itself`;
  const waited = ready === null ? "" : `, a received response waited ${ms(ready.waitMs)} for it on ` +
    `average, the median latency ${ms(ready.p50Ms)}`;
  return `the load worker was saturated (running or waiting for a core at least ${SATURATED_PCT}% of the ` +
    `time, its timers at least ${LATE_LOOP_MS} ms late${when}) in ${s.saturated} of ${s.judged} ` +
    `intervals (running ${pct(s.busyPct)}, waiting for a core ${pct(s.waitPct)}, timers up to ` +
    `${ms(s.loopLagMs)} late${waited})`;
}
