/**
 * @module
 * Whether the rest of the machine worked enough, while two sides compared one run each ran, to make their
 * difference. Batch means see the noise within each run, not what moved between runs: the same target run
 * twice read 72k and 37k req/s, 18 standard errors apart, when two busy processes started during the
 * second run, and 71k and 46k (11 apart) with the suite's other files busy during both. Each run records
 * what the rest of the host did meanwhile (`hostCpu`, runner/stats/host_cpu.ts). The machine was busy for
 * the comparison when other processes took `MIN_OTHER_CORES` or more during either run and tasks waited
 * for a core: `CONTENDED_STALL_PCT` of the time in either run, or that share moved by `MIN_STALL_POINTS`
 * (a target loadlab did not start, on this host, is other work too, but on a machine with a core for it
 * nothing waits).
 *
 * Other work of k cores on a machine of n cores can slow a run by about n / (n - k) (the share of the cores
 * left), more than it slows its twin when the work comes and goes, and add a few scheduler slices to each
 * request (`WAIT_MS_PER_CORE` per core): a difference larger than both is still the targets' (an
 * overwhelming one), and a smaller one is not judged, with repeats named as the way to judge it: their
 * spread holds what moves between runs. Pure.
 */
import type { RunResult } from "../schema.ts";
import { type NoiseMetric, runValue } from "./noise_samples.ts";
import { finiteMean } from "./points.ts";

/** Other processes' CPU this large (cores) during a run can change its numbers. */
export const MIN_OTHER_CORES = 0.25;
/** ...when some task waited for a core this share of either run (an idle machine's runs read 7-8%)... */
export const CONTENDED_STALL_PCT = 20;
/** ...or that share moved this many points between the two. */
export const MIN_STALL_POINTS = 15;
/** A latency difference under this much per core of changed work may be the scheduler's wait. */
export const WAIT_MS_PER_CORE = 25;

/** A side's mean other work, wait share and cores; null when a run of it did not record them. */
function sideOf(runs: RunResult[]): { otherCores: number; stallPct: number; cores: number } | null {
  const cpu = runs.map((r) => r.hostCpu);
  if (cpu.length === 0 || cpu.some((c) => c === undefined)) return null;
  return {
    otherCores: finiteMean(cpu.map((c) => c!.otherCores)),
    stallPct: finiteMean(cpu.map((c) => c!.stallPct ?? Number.NaN)),
    cores: Math.max(...cpu.map((c) => c!.cores)),
  };
}

const one = (x: number) => Number(x.toFixed(1));

/**
 * Why `after` against `before` in `metric` cannot be told from the machine's other work, or null when the
 * machine was quiet for both (or its work cannot explain the difference). Rates and latencies, one run a side.
 */
export function machineChangeBlocker(
  before: RunResult[],
  after: RunResult[],
  metric: NoiseMetric,
): string | null {
  const [a, b] = [sideOf(before), sideOf(after)];
  if (a === null || b === null) return null;
  const otherCores = Math.max(a.otherCores, b.otherCores);
  if (otherCores < MIN_OTHER_CORES) return null;
  // Without pressure accounting the wait share is unknown (NaN): the CPU alone decides.
  const contended = !(Math.max(a.stallPct, b.stallPct) < CONTENDED_STALL_PCT) ||
    !(Math.abs(a.stallPct - b.stallPct) < MIN_STALL_POINTS);
  if (!contended) return null;
  const factor = a.cores / Math.max(a.cores - otherCores, 0.5);
  const [x, y] = [before, after].map((runs) => finiteMean(runs.map((r) => runValue(r, metric))));
  const ratio = Math.max(x, y) / Math.min(x, y);
  const waitMs = WAIT_MS_PER_CORE * otherCores;
  if (ratio > factor && (metric === "rps" || Math.abs(x - y) > waitMs)) return null;
  const [busy, quiet] = b.otherCores > a.otherCores ? [after, before] : [before, after];
  const [hi, lo] = b.otherCores > a.otherCores ? [b, a] : [a, b];
  const waits = Number.isFinite(hi.stallPct)
    ? ` (waits for a core ${Math.round(hi.stallPct)}% of the time, ${Math.round(lo.stallPct)}%)`
    : "";
  return `other processes took ${one(hi.otherCores)} of the ${a.cores} cores during ${busy[0].name}, ` +
    `${one(lo.otherCores)} during ${quiet[0].name}${waits}, enough alone for a ${one(factor)}x difference: ` +
    `run repeats (repeats: 3) or on a quiet machine`;
}

/**
 * "other processes took 1.1 of the 2 cores": beside a run's rate when the rest of the machine worked
 * while it ran (`MIN_OTHER_CORES` or more), so its absolute numbers are read as this machine's then; ""
 * otherwise, and where the run recorded nothing.
 */
export function busyMachineNote(run: Pick<RunResult, "hostCpu">): string {
  const cpu = run.hostCpu;
  if (cpu === undefined || cpu.otherCores < MIN_OTHER_CORES) return "";
  return `other processes took ${one(cpu.otherCores)} of the ${cpu.cores} cores`;
}
