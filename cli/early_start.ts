/**
 * @module
 * What a command starts before its own modules load, imported by main.ts ahead of the command's module:
 * the load worker isolate (runner/worker/load_worker.ts) of `attack` and `ghz`, or of `run` of a session or
 * k6 script, whose modules then load at the same time on the other core. Not when a flag asks for other
 * limits (more workers, another memory limit): the run could not take it.
 */
import { SESSIONS_YOUNG_MB, startEarlyWorker } from "../runner/worker/load_worker.ts";

const OTHER_LIMITS = /^(-w|--workers|--cpus|--max-memory-mb)(=|$)|^-w\d/;
const SCRIPT = /\.(ts|js|mjs)$/;

export function startEarly(command: string, args: string[]): void {
  if (args.some((arg) => OTHER_LIMITS.test(arg))) return;
  if (command === "attack" || command === "ghz") void startEarlyWorker();
  else if (command === "run" && SCRIPT.test(args[0] ?? "")) void startEarlyWorker(SESSIONS_YOUNG_MB);
}
