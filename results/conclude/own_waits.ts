/**
 * @module
 * How far a run's own waits for a core (run-queue waits, timer lag) move its numbers: waiting share w
 * stretches work by at most 1 / (1 - w), within which a difference is not judged. Other processes' CPU is
 * only said beside a rate (`busyMachineNote`): a nice'd job costs the run nothing. Pure.
 */
import type { RunResult } from "../schema/results.ts";
import type { NoiseMetric } from "./noise_samples.ts";
import { WAKE_WAITS } from "./generator_saturation.ts";
import { formatSignificant } from "../text_format.ts";
import { meanOf } from "../stats.ts";
import { maxOf } from "../../system/large_arrays.ts";

/** The share of the time a run's threads waited, capped: past it the stretch bound means nothing. */
const MAX_WAIT_SHARE = 0.9;
/** Times a request wakes each of the worker and the target (a request in, an answer out). */
const WAKES_PER_REQUEST = 2;

/** What one side's runs recorded of their own waits for a core (the most over its runs). */
export type OwnWaits = NonNullable<ReturnType<typeof runWaits>>;

const nums = (xs: Array<number | null | undefined>) => xs.filter((x): x is number => typeof x === "number");
const most = (xs: number[]) => xs.length ? maxOf(xs) : null;

/** One run's own waits, the mean or the `busiest` interval's; null when it recorded none (an older file). */
function runWaits(run: RunResult, busiest: boolean) {
  const ivs = run.intervals ?? [];
  const procs = (run.telemetry ?? []).filter((t) => t.kind === "process" && t.name !== "redis");
  const of = busiest ? most : meanOf;
  const workerWaitPct = of(nums(ivs.map((iv) => iv.generatorWaitPct)));
  const targetWaits = procs.flatMap((p) => of(nums(p.samples.map((s) => s.runQueueWaitPct))) ?? []);
  const targetWaitPct = most(targetWaits);
  if (workerWaitPct === null && targetWaitPct === null) return null;
  const workerWakes = nums(ivs.map((iv) => iv.wakeWaitMs));
  const targetWakes = procs.flatMap((p) => nums(p.samples.map((s) => s.runQueueWakeWaitMs)));
  const open = run.targetRps !== null;
  return {
    /** Mean % of the time the busiest load worker's thread waited for a core; null where not recorded. */
    workerWaitPct,
    /** Mean % of the time the target's most-waiting main thread waited; null where not recorded. */
    targetWaitPct,
    /** The mean wait at each wake-up, worker's and target's together, over the intervals (ms). */
    wakeWaitMs: (of(workerWakes) ?? 0) + (of(targetWakes) ?? 0),
    /** Open loads: the latest the worker's timers fired in any interval (ms); 0 for closed loads. */
    lagMs: open ? Math.max(0, maxOf(nums(ivs.map((iv) => iv.loopLagMs)))) : 0,
    /** Open loads: sends that went out late, summed over the runs. */
    lateSends: open ? run.lateSends : 0,
    /** The shares and wake-up waits are the busiest interval's, not the mean: a p99 is the worst moments'. */
    busiest,
  };
}

/** A side's own waits: the most any of its runs recorded; null when none recorded any. */
export function ownWaits(runs: RunResult[], busiest = false): OwnWaits | null {
  const each = runs.map((r) => runWaits(r, busiest)).filter((w) => w !== null);
  if (each.length === 0) return null;
  const mostOf = (pick: (w: OwnWaits) => number | null) => most(nums(each.map(pick)));
  return {
    workerWaitPct: mostOf((w) => w.workerWaitPct),
    targetWaitPct: mostOf((w) => w.targetWaitPct),
    wakeWaitMs: mostOf((w) => w.wakeWaitMs) ?? 0,
    lagMs: mostOf((w) => w.lagMs) ?? 0,
    lateSends: each.reduce((a, w) => a + w.lateSends, 0),
    busiest,
  };
}

/** The share of the time that stretches a request: the larger of the worker's and the target's, capped. */
function waitShare(w: OwnWaits): number {
  return Math.min(MAX_WAIT_SHARE, Math.max(w.workerWaitPct ?? 0, w.targetWaitPct ?? 0) / 100);
}

/** What a latency can gain from the waits alone (ms): waits at wake-ups and a timer's lag. */
function addedMs(w: OwnWaits, metric: NoiseMetric): number {
  const wakes = (metric === "p99" ? WAKE_WAITS : WAKES_PER_REQUEST) * w.wakeWaitMs;
  return wakes + w.lagMs;
}

/** The farthest the slower side's waits `w` can move the faster side's `fast` value. */
export function explainedBound(metric: NoiseMetric, fast: number, meanMs: number, w: OwnWaits): number {
  const stretch = 1 / (1 - waitShare(w));
  if (metric === "rps") return fast / (stretch + (meanMs > 0 ? addedMs(w, metric) / meanMs : 0));
  return fast * stretch + addedMs(w, metric);
}

/** The wait share (%) under which the waits could no longer explain `slow`; null if never. */
export function settlingSharePct(fast: number, slow: number, w: OwnWaits, metric: NoiseMetric) {
  const room = slow - addedMs(w, metric);
  if (!(room > fast)) return null;
  return (1 - fast / room) * 100;
}

const one = (x: number) => Number(x.toFixed(1));
const ms = (x: number) => `${formatSignificant(x)} ms`;

/** "the load worker waited for a core 21% of the time, the target's main thread 35%, ...". */
function waitsText(w: OwnWaits): string {
  const shares = [
    w.workerWaitPct !== null ? `the load worker waited for a core ${one(w.workerWaitPct)}% of the time` : "",
    w.targetWaitPct !== null ? `the target's main thread ${one(w.targetWaitPct)}%` : "",
  ].filter((s) => s !== "");
  const wake = w.wakeWaitMs > 0 ? [`${ms(w.wakeWaitMs)} at each wake-up`] : [];
  const lag = w.lagMs > 0 ? [`timers up to ${ms(w.lagMs)} late, ${w.lateSends} sends late`] : [];
  return (w.busiest ? "in its busiest interval " : "") + [...shares, ...wake, ...lag].join(", ");
}

/** Whether the slower side's own waits can explain the change and how far they reach; null: none recorded. */
export function judgeOwnWaits(
  before: RunResult[],
  after: RunResult[],
  metric: NoiseMetric,
  baseLevel: number,
  level: number,
  repeats = false,
) {
  if (metric === "success" || !Number.isFinite(baseLevel) || !Number.isFinite(level)) return null;
  const higherIsWorse = metric !== "rps";
  const afterWorse = higherIsWorse ? level > baseLevel : level < baseLevel;
  const [slowRuns, fastRuns] = afterWorse ? [after, before] : [before, after];
  const [slow, fast] = afterWorse ? [level, baseLevel] : [baseLevel, level];
  const w = ownWaits(slowRuns, metric === "p99");
  if (w === null) return null;
  const meanMs = meanOf(fastRuns.map((r) => r.latencyMs.mean).filter(Number.isFinite)) ?? 0;
  const bound = explainedBound(metric, fast, meanMs, w);
  const unit = metric === "rps" ? (x: number) => `${formatSignificant(x)} req/s` : ms;
  const explains = higherIsWorse ? slow <= bound : slow >= bound;
  const reach = `the slower side's own waits (${waitsText(w)}) move ${unit(fast)} to ${unit(bound)} at most`;
  if (!explains) return { explains, text: `beyond what ${reach}, ${unit(slow)} measured` };
  const rateRoom = fast / slow - (meanMs > 0 ? addedMs(w, metric) / meanMs : 0);
  const share = higherIsWorse
    ? settlingSharePct(fast, slow, w, metric)
    : rateRoom > 1
    ? (1 - 1 / rateRoom) * 100
    : null;
  const quieter = share !== null && share > 0
    ? `with its threads waiting for a core under ${one(share)}% of the time (a quieter machine)`
    : "on a quieter machine";
  const orRepeats = repeats ? "" : " or with repeats (repeats: 3)";
  return { explains, text: `${reach}, ${unit(slow)} measured: judged ${quieter}${orRepeats}` };
}

/** Other processes' CPU this large (cores) during a run is said beside it. */
const MIN_OTHER_CORES = 0.25;

/** "other processes took 1.1 of the 2 cores" when the rest of the machine worked; "" otherwise. */
export function busyMachineNote(run: Pick<RunResult, "hostCpu">): string {
  const cpu = run.hostCpu;
  if (cpu === undefined || cpu.otherCores < MIN_OTHER_CORES) return "";
  return `other processes took ${one(cpu.otherCores)} of the ${cpu.cores} cores`;
}

/**
 * "other processes took 1.1 of the 2 cores during run cached/c=10": the run of `slower` they took most from,
 * when `MIN_OTHER_CORES` more than from every run of `faster` (it can explain that side's loss); else "".
 */
export function disturbedNote(slower: readonly RunResult[], faster: readonly RunResult[]): string {
  const taken = (r: RunResult) => r.hostCpu?.otherCores ?? 0;
  const most = slower.reduce<RunResult | null>((a, r) => a === null || taken(r) > taken(a) ? r : a, null);
  if (most === null || taken(most) - Math.min(...faster.map(taken)) < MIN_OTHER_CORES) return "";
  const note = busyMachineNote(most);
  return note && `${note} during run ${most.name}`;
}
