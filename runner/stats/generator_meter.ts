/**
 * @module
 * The load worker's own evidence of whether it was the run's queue (results/conclude/generator_saturation.ts
 * judges it): on each tick of the worker's run timer, how long its thread ran on a core and waited in the run
 * queue for one since the previous tick (`/proc/thread-self/schedstat`, one small read every 50 ms), and how
 * late the tick fired, added to the interval the tick falls in. `attach` puts each interval's shares on the
 * recorder's sample of it as the worker drains them. With it, where the transport measures it (every
 * transport's probe, runner/http/transport/ready_wait.ts), how long a response that reached the kernel
 * waited for the worker to read it, averaged over the interval (`readyWaitMs`), and how long the thread
 * waited for a core each time it was put on one (`wakeWaitMs`: what the machine's run queue alone adds to
 * a response the worker is woken for). Off the hot path: a tick's
 * work is one read and a few additions. Where the kernel keeps no schedstat, nothing is recorded.
 */
import { readThreadSchedMs } from "../../system/proc_stat.ts";
import type { GeneratorLoad } from "../../results/conclude/generator_saturation.ts";
import { idleSample, type IntervalSample } from "./sample.ts";

/** One interval's sums: wall time covered by ticks, time run and waited, the latest tick, ready waits. */
interface Span {
  wallMs: number;
  runMs: number;
  waitMs: number;
  lagMs: number;
  /** Times the thread was put on a core; NaN where the kernel does not count them. */
  slices: number;
  readyCount: number;
  readySumMs: number;
}

/** What the meter reads on each tick: the thread's times, and the transport's ready waits (if measured). */
interface MeterSources {
  sched?: typeof readThreadSchedMs;
  readyWait?: () => { count: number; sumMs: number } | null;
}

/** Ticks of one worker, summed per interval until its sample is drained. */
export class GeneratorMeter {
  readonly #spans = new Map<number, Span>();
  #lastMs = NaN;
  #last: { runMs: number; waitMs: number; slices?: number } | null = null;
  readonly read: typeof readThreadSchedMs;
  readonly readyWait: MeterSources["readyWait"];

  /**
   * `periodMs`: the run timer's period, so a tick's lateness is what came after it. The first reading is
   * taken now: a first tick held back by a turn that opened thousands of connections still covers it.
   */
  constructor(
    readonly originMs: number,
    readonly intervalMs: number,
    readonly periodMs: number,
    sources: MeterSources = {},
    nowMs = performance.now(),
  ) {
    this.read = sources.sched ?? readThreadSchedMs;
    this.readyWait = sources.readyWait;
    this.#last = this.read();
    this.#lastMs = nowMs;
    this.readyWait?.();
  }

  /**
   * One tick of the run timer at `nowMs`. A tick that came late spans several intervals: its time is
   * shared among them by overlap, each with the tick's lateness, so an interval in which the loop was too
   * busy to run a timer at all is judged by the turn that blocked it, not skipped.
   */
  tick(nowMs: number): void {
    const sched = this.read();
    const ready = this.readyWait?.() ?? null;
    if (sched === null) return;
    const last = this.#last, lastMs = this.#lastMs;
    this.#last = sched;
    this.#lastMs = nowMs;
    const fromMs = Math.max(lastMs, this.originMs);
    if (last === null || nowMs <= fromMs) return;
    const wallMs = nowMs - lastMs, lagMs = wallMs - this.periodMs;
    const runMs = sched.runMs - last.runMs, waitMs = sched.waitMs - last.waitMs;
    const slices = (sched.slices ?? NaN) - (last.slices ?? NaN);
    let index = Math.floor((fromMs - this.originMs) / this.intervalMs);
    for (let startMs = fromMs; startMs < nowMs; index++) {
      const endMs = Math.min(nowMs, this.originMs + (index + 1) * this.intervalMs);
      const share = (endMs - startMs) / wallMs;
      let span = this.#spans.get(index);
      if (span === undefined) this.#spans.set(index, span = newSpan());
      span.wallMs += endMs - startMs;
      span.runMs += runMs * share;
      span.waitMs += waitMs * share;
      span.slices += slices * share;
      span.lagMs = Math.max(span.lagMs, lagMs);
      if (ready !== null) {
        span.readyCount += ready.count * share;
        span.readySumMs += ready.sumMs * share;
      }
      startMs = endMs;
    }
  }

  /**
   * Puts each drained interval's shares on its sample (`generator`) and forgets the interval. An interval
   * before the last drained one that had no sample (no event, no open connection: a turn that blocked
   * while it opened thousands of connections) gets an empty one carrying its shares, in index order, so
   * the run is judged by its blocked start too.
   */
  attach(samples: IntervalSample[]): IntervalSample[] {
    if (samples.length === 0) return samples;
    const last = samples[samples.length - 1];
    const uncorrected = last.uncorrectedHistogram !== null;
    const out: IntervalSample[] = [];
    const missing = [...this.#spans.keys()].filter((i) =>
      i < last.index && !samples.some((s) => s.index === i)
    )
      .sort((a, b) => a - b);
    for (const sample of samples) {
      while (missing.length > 0 && missing[0] < sample.index) {
        out.push(idleSample(missing.shift()!, 0, 0, uncorrected));
      }
      out.push(sample);
    }
    for (const sample of out) {
      const span = this.#spans.get(sample.index);
      if (span === undefined) continue;
      this.#spans.delete(sample.index);
      const load = loadOfSpan(span);
      if (load !== null) sample.generator = load;
    }
    return out;
  }
}

function newSpan(): Span {
  return { wallMs: 0, runMs: 0, waitMs: 0, lagMs: 0, slices: 0, readyCount: 0, readySumMs: 0 };
}

/** A span's shares of its wall time; null for one too short to say anything. */
function loadOfSpan(span: Span): GeneratorLoad | null {
  if (span.wallMs <= 0) return null;
  const pct = (ms: number) => Math.round(Math.min(100, Math.max(0, (ms / span.wallMs) * 100)) * 10) / 10;
  const tenths = (ms: number) => Math.round(Math.max(0, ms) * 10) / 10;
  return {
    generatorBusyPct: pct(span.runMs),
    generatorWaitPct: pct(span.waitMs),
    loopLagMs: tenths(span.lagMs),
    ...(span.readyCount > 0 ? { readyWaitMs: tenths(span.readySumMs / span.readyCount) } : {}),
    ...(span.slices > 0 ? { wakeWaitMs: Math.round((span.waitMs / span.slices) * 100) / 100 } : {}),
  };
}
