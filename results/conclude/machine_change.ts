/**
 * @module
 * Whether the rest of the machine worked while a run ran (`hostCpu`), said beside its rate; it judges
 * nothing (own_waits.ts does). Pure.
 */
import type { RunResult } from "../schema/results.ts";

/** Other processes' CPU this large (cores) during a run is said beside it. */
const MIN_OTHER_CORES = 0.25;

const one = (x: number) => Number(x.toFixed(1));

/** "other processes took 1.1 of the 2 cores" when the rest of the machine worked; "" otherwise. */
export function busyMachineNote(run: Pick<RunResult, "hostCpu">): string {
  const cpu = run.hostCpu;
  if (cpu === undefined || cpu.otherCores < MIN_OTHER_CORES) return "";
  return `other processes took ${one(cpu.otherCores)} of the ${cpu.cores} cores`;
}
