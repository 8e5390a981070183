/**
 * @module
 * Whether the rest of the machine worked while a run ran (`hostCpu`, runner/stats/host_cpu.ts), said beside
 * its rate so its absolute numbers are read as this machine's then. It judges nothing: other processes'
 * CPU is no measure of what a run lost (a nice'd job yields its core at once); what a comparison may blame on
 * a busy machine is the run's own waits for a core (own_waits.ts). Pure.
 */
import type { RunResult } from "../schema/results.ts";

/** Other processes' CPU this large (cores) during a run is said beside it. */
export const MIN_OTHER_CORES = 0.25;

const one = (x: number) => Number(x.toFixed(1));

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
