/**
 * @module
 * The load worker's evidence of being the run's queue (conclude/generator_saturation.ts judges it): per tick,
 * the thread's run and run-queue time (schedstat), the tick's lateness and the transport's ready wait.
 */
import { readThreadSchedMs } from "../../system/proc_stat.ts";
import type { GeneratorLoad } from "../../results/conclude/generator_saturation.ts";
import { idleSample, type IntervalSample } from "./sample.ts";

/** One interval's sums of ticks; `slices`: times the thread was put on a core (NaN where not counted). */
type Span = ReturnType<typeof newSpan>;

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

  /** `periodMs`: the run timer's period. The first reading is taken now, so a late first tick covers it. */
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

  /** One tick at `nowMs`; a late tick's time is shared among the intervals it spans, the blocked ones too. */
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

  /** Puts each drained interval's shares on its sample; a skipped interval gets an empty sample for them. */
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

function newSpan() {
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
