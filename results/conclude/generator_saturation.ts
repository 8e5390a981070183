/**
 * @module
 * Whether a closed-model run's own generator was its queue. A closed loop has no schedule to be late for,
 * so late sends cannot say it (results/conclude/bound_verdict.ts judges open runs by them); what says it
 * is the load worker's thread. While the target is the limit, the thread sleeps between bursts of
 * responses (in `epoll_wait`, or the runtime's poll): it has nothing to do until the target answers.
 * When the thread hardly sleeps (it runs on a core or waits in the run queue for one nearly all the time,
 * `SATURATED_PCT`) and its event loop is late (its timers fire `LATE_LOOP_MS` or more behind), responses
 * and sessions queue in the worker's own code, not at the target, and the latencies hold loadlab's own
 * queue: 10,000 sessions on one worker, a check or script that burns CPU per request, a turn that opens
 * thousands of connections. Waiting for a core counts with running on one: a saturated worker on a busy
 * machine runs a fifth of the time and waits the rest, and it is no less the run's queue.
 *
 * The late loop is what sets the worker's own queue apart from a machine that is merely busy: on a
 * machine at load 18 a light closed run's worker (2 connections, a TLS handshake loop) is runnable nearly
 * all the time too, waiting for a core at every wake-up, but its timers run within tens of milliseconds
 * (at most 42 ms measured at load 28), while a saturated worker's run 100 ms to seconds late. A fixed
 * request's loop is never that late (the epoll pump yields every 5 ms), so a closed run of fixed
 * requests whose worker is saturated by the sheer crowd (10,000 connections) is not flagged in its steady
 * state, only while its turns block (opening the connections).
 *
 * Each interval of a closed run carries the busiest worker's thread (`generatorBusyPct`,
 * `generatorWaitPct`: % of the interval it ran on a core and waited for one) and the most its timers fired
 * late (`loopLagMs`), recorded by the worker (runner/stats/generator_meter.ts), combined over workers and
 * shards by `busierLoad` (the busiest worker holds its requests up whatever the others did). Pure.
 */

/** One interval's generator evidence, as a results interval carries it. */
export interface GeneratorLoad {
  /** % of the interval the busiest load worker's thread ran on a core. */
  generatorBusyPct: number;
  /** % of the interval that thread waited in the run queue for a core. */
  generatorWaitPct: number;
  /** The most the worker's timer fired late in the interval (ms): how late its event loop was. */
  loopLagMs: number;
}

/**
 * A thread running or waiting for a core this share of an interval (%) had no idle time to speak of:
 * saturated. Not 100: a saturated worker on a busy machine still idles while the target, starved of a
 * core too, holds every request at once (88% measured at load 12 on 2 cores); an unsaturated one, at
 * most 56% there.
 */
export const SATURATED_PCT = 80;
/** Timers this late (ms) say the worker's event loop, not only the machine, held the run up. */
export const LATE_LOOP_MS = 100;
/** Fewest intervals with evidence to judge a run by: one busy interval (a connect storm) says nothing. */
export const MIN_JUDGED_INTERVALS = 2;

/** The busier of two workers' (or shards') loads of one interval; its loop lag is the larger of both. */
export function busierLoad(
  a: GeneratorLoad | undefined,
  b: GeneratorLoad | undefined,
): GeneratorLoad | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  const busier = demandPct(b) > demandPct(a) ? b : a;
  return { ...busier, loopLagMs: Math.max(a.loopLagMs, b.loopLagMs) };
}

/** The generator evidence of a results interval; undefined when it has none (open models, older files). */
export function loadOf(interval: Partial<GeneratorLoad>): GeneratorLoad | undefined {
  const { generatorBusyPct, generatorWaitPct, loopLagMs } = interval;
  if (generatorBusyPct === undefined || generatorWaitPct === undefined) return undefined;
  return { generatorBusyPct, generatorWaitPct, loopLagMs: loopLagMs ?? 0 };
}

function demandPct(load: GeneratorLoad): number {
  return load.generatorBusyPct + load.generatorWaitPct;
}

/** What the intervals of a closed run say about its generator. */
export interface GeneratorSaturation {
  /** Intervals with evidence, and those whose busiest worker was saturated and late (`SATURATED_PCT`, `LATE_LOOP_MS`). */
  judged: number;
  saturated: number;
  /** Means over the judged intervals of the busiest worker's running and waiting shares (%). */
  busyPct: number;
  waitPct: number;
  /** The most its timers fired late over the run (ms). */
  loopLagMs: number;
  /** At least `MIN_JUDGED_INTERVALS` judged and most of them (more than half) saturated. */
  bound: boolean;
}

/** The generator's saturation over `intervals`; null when none carries evidence. */
export function generatorSaturation(
  intervals: ReadonlyArray<Partial<GeneratorLoad>>,
): GeneratorSaturation | null {
  let judged = 0, saturated = 0, busy = 0, wait = 0, lag = 0;
  for (const interval of intervals) {
    const load = loadOf(interval);
    if (load === undefined) continue;
    judged++;
    if (demandPct(load) >= SATURATED_PCT && load.loopLagMs >= LATE_LOOP_MS) saturated++;
    busy += load.generatorBusyPct;
    wait += load.generatorWaitPct;
    lag = Math.max(lag, load.loopLagMs);
  }
  if (judged === 0) return null;
  return {
    judged,
    saturated,
    busyPct: busy / judged,
    waitPct: wait / judged,
    loopLagMs: lag,
    bound: judged >= MIN_JUDGED_INTERVALS && saturated * 2 > judged,
  };
}

/**
 * The evidence in words: "the load worker was saturated (running or waiting for a core at least 80% of
 * the time, its timers at least 100 ms late) in 8 of 8 intervals (running 52%, waiting for a core 47%,
 * timers up to 410 ms late)".
 */
export function saturationText(s: GeneratorSaturation): string {
  const pct = (v: number) => `${Math.round(v)}%`;
  return `the load worker was saturated (running or waiting for a core at least ${SATURATED_PCT}% of the ` +
    `time, its timers at least ${LATE_LOOP_MS} ms late) in ${s.saturated} of ${s.judged} intervals ` +
    `(running ${pct(s.busyPct)}, waiting for a core ${pct(s.waitPct)}, timers up to ` +
    `${Math.round(s.loopLagMs)} ms late)`;
}
