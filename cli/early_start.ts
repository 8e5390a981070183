/**
 * @module
 * Starts the load worker isolate (runner/worker/load_worker.ts) of `attack`, `ghz`, and `run` of a session
 * or k6 script before the command's modules load (main.ts imports this first), so both load at once on two
 * cores; not when a flag asks for other limits (more workers, another memory limit) the run could not take.
 */
import { SESSIONS_YOUNG_MB, startEarlyWorker } from "../runner/worker/load_worker.ts";

const OTHER_LIMITS = /^(-w|--workers|--cpus|--max-memory-mb)(=|$)|^-w\d/;
const SCRIPT = /\.(ts|js|mjs)$/;

export function startEarly(command: string, args: string[]): void {
  if (args.some((arg) => OTHER_LIMITS.test(arg))) return;
  if (command === "attack" || command === "ghz") void startEarlyWorker();
  else if (command === "run" && SCRIPT.test(args[0] ?? "")) void startEarlyWorker(SESSIONS_YOUNG_MB);
}
