/**
 * @module
 * Whether the machine itself changed between two sides compared one run each, enough to make their
 * difference. Batch means see the noise within each run, not what moved between runs: the same target run
 * twice read 72k and 37k req/s, 18 standard errors apart, when two busy processes started during the
 * second run. Each run records what the rest of the host did meanwhile (`hostCpu`,
 * runner/stats/host_cpu.ts); the machine changed when other processes' CPU moved by `MIN_OTHER_CORES` or
 * more and the share of time some task waited for a core by `MIN_STALL_POINTS` (a target loadlab did not
 * start, on this host, moves the first without the second while it has a core of its own).
 *
 * A change of k cores of other work on a machine of n cores can slow a side by about n / (n - k) (the
 * share of the cores left), and add a few scheduler slices to each request (`WAIT_MS_PER_CORE` per core); a
 * difference larger than both is still the targets' (an overwhelming one), and a smaller one is not judged,
 * with repeats named as the way to judge it: their spread holds what moves between runs. Pure.
 */
import type { RunResult } from "../schema.ts";
import { type NoiseMetric, runValue } from "./noise_samples.ts";
import { finiteMean } from "./points.ts";

/** A move of other processes' CPU this large (cores) can change a run's numbers. */
export const MIN_OTHER_CORES = 0.25;
/** ...when the share of the run some task waited for a core moved this many points too. */
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
 * Why `after` against `before` in `metric` cannot be told from a change of the machine, or null when the
 * machine held (or its change cannot explain the difference). Rates and latencies, one run a side.
 */
export function machineChangeBlocker(
  before: RunResult[],
  after: RunResult[],
  metric: NoiseMetric,
): string | null {
  const [a, b] = [sideOf(before), sideOf(after)];
  if (a === null || b === null) return null;
  const changedCores = Math.abs(a.otherCores - b.otherCores);
  if (changedCores < MIN_OTHER_CORES) return null;
  // Without pressure accounting the wait share is unknown (NaN): the CPU alone decides.
  if (Math.abs(a.stallPct - b.stallPct) < MIN_STALL_POINTS) return null;
  const factor = a.cores / Math.max(a.cores - changedCores, 0.5);
  const [x, y] = [before, after].map((runs) => finiteMean(runs.map((r) => runValue(r, metric))));
  const ratio = Math.max(x, y) / Math.min(x, y);
  const waitMs = WAIT_MS_PER_CORE * changedCores;
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
