/**
 * @module
 * Starts a load worker isolate (runner/worker/load_worker.ts) before the command's modules load (for `attack`
 * and `ghz` from main.ts, for `run` of a script from cli/run/script_check.ts), so both load at once on two
 * cores; not when a flag asks for other limits (more workers, another memory limit) the run could not take.
 */
import { startEarlyWorker } from "../runner/worker/load_worker.ts";

const OTHER_LIMITS = /^(-w|--workers|--cpus|--max-memory-mb)(=|$)|^-w\d/;

/** Starts it, its young generation `youngMb`, unless `args` ask for other limits; whether it started. */
export function startEarly(args: string[], youngMb?: number): boolean {
  if (args.some((arg) => OTHER_LIMITS.test(arg))) return false;
  void startEarlyWorker(youngMb);
  return true;
}
