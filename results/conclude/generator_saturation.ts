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
 * (at most 42 ms measured at load 28), while a saturated worker's run 100 ms to seconds late.
 *
 * A fixed request's loop is never that late (the epoll pump yields every 5 ms), so a worker saturated by
 * the sheer crowd (10,000 connections on one core) shows it another way: its responses wait. Each
 * transport's probe (runner/http/transport/ready_wait.ts: a timerfd on epoll, a timeout request on
 * io_uring, an off-thread sleep's completion on the deno transport) measures how long a response that
 * reached the kernel (or the runtime) waited for the worker to read it (`readyWaitMs`); when that wait is at
 * least `QUEUED_SHARE` of the interval's median latency and at least `QUEUED_MIN_MS` (`OWN_QUEUE_MIN_MS` when
 * the worker itself ran on its core most of the interval; `WAKE_WAITS` times the worker's wait for a core at
 * each wake-up where that was counted), the latency is mostly loadlab's own queue.
 * Against a slow server the same probe reads a few ms (7 ms of 170 ms against a 50 ms sleep at c=3,000,
 * load 5): the requests wait at the server, not in the worker. A light worker on a busy machine waits
 * for a core at each wake-up, as long as its timers are late there (tens of ms), never `QUEUED_MIN_MS`.
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
  /** Mean wait of a ready response for the worker to read it (ms); absent where not measured. */
  readyWaitMs?: number;
  /**
   * Mean wait of the worker's thread for a core each time it was put on one (ms); absent where not counted.
   */
  wakeWaitMs?: number;
}

/** What an interval of a results file gives the judgement: its generator evidence and median latency (ms). */
export type JudgedInterval = Partial<GeneratorLoad> & { p50?: number };

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
/** A received response waiting for the worker this share of the median latency or more: its own queue. */
export const QUEUED_SHARE = 0.5;
/** ...and at least this long (ms): past what a busy machine's run queue alone holds a light worker. */
export const QUEUED_MIN_MS = 50;
/**
 * ...or, where the worker's wait for a core at each wake-up was counted, this many times that wait (and
 * `OWN_QUEUE_MIN_MS`): a light worker on a busy machine reads about one such wait (it sleeps, is woken by
 * the response, waits for a core, reads it), a saturated one tens to thousands (5,000 connections against
 * nginx beside two busy loops: responses waited 50 ms, the worker 0.03 ms a wake-up; beside four, 0.5 ms).
 */
export const WAKE_WAITS = 4;
/**
 * ...or at least this long (ms) while the worker ran on its core `SATURATED_PCT` of the interval itself
 * (running, not waiting for a core: its own work, not a busy machine's): on an idle machine a crowd of
 * 2,000 against nginx waited 13 of its 13 ms for the worker, 5,000 28-37 of 28-41 ms, all of the latency
 * loadlab's, under the 50 ms a busy machine needs. Well above what a fast server's answers wait at 50
 * connections (a fraction of a millisecond).
 */
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
    ...(readyWaitMs === undefined ? {} : { readyWaitMs }),
    ...(wakeWaitMs === undefined ? {} : { wakeWaitMs }),
  };
}

function demandPct(load: GeneratorLoad): number {
  return load.generatorBusyPct + load.generatorWaitPct;
}

/** What the intervals of a closed run say about its generator. */
export interface GeneratorSaturation {
  /**
   * Intervals with evidence, and those whose busiest worker was saturated and late (`SATURATED_PCT`,
   * `LATE_LOOP_MS`).
   */
  judged: number;
  saturated: number;
  /** Means over the judged intervals of the busiest worker's running and waiting shares (%). */
  busyPct: number;
  waitPct: number;
  /** The most its timers fired late over the run (ms). */
  loopLagMs: number;
  /**
   * Means over the judged intervals that measured it of how long a received response waited for the
   * worker (ms) and of their median latency (ms); null where no interval measured it.
   */
  readyWait: { waitMs: number; p50Ms: number } | null;
  /** At least `MIN_JUDGED_INTERVALS` judged and most of them (more than half) saturated. */
  bound: boolean;
}

/** The generator's saturation over `intervals`; null when none carries evidence. */
export function generatorSaturation(intervals: ReadonlyArray<JudgedInterval>): GeneratorSaturation | null {
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
    judged,
    saturated,
    busyPct: busy / judged,
    waitPct: wait / judged,
    loopLagMs: lag,
    readyWait: probed === 0 ? null : { waitMs: readyWaitMs / probed, p50Ms: p50Ms / probed },
    bound: judged >= MIN_JUDGED_INTERVALS && saturated * 2 > judged,
  };
}

/**
 * The worker ran or waited for a core nearly all the interval, and either its timers were late or a
 * received response waited for it most of the median latency `p50Ms` (an interval that answered nothing,
 * a connect storm's, has no latency to compare with).
 */
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

/**
 * The evidence in words: "the load worker was saturated (running or waiting for a core at least 80% of
 * the time, its timers at least 100 ms late) in 8 of 8 intervals (running 52%, waiting for a core 47%,
 * timers up to 410 ms late)"; where the ready wait was measured, the condition adds "or a received
 * response waiting for it at least 50% of the median latency and 50 ms (or 4 times its wait for a core at
 * each wake-up), or 10 ms while it ran on its core 80% of the time itself" and the figures end "a received
 * response waited 84 ms for it on average, the median latency 117 ms".
 */
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
