/**
 * @module
 * What a command starts before its own modules load, imported by main.ts ahead of the command's module:
 * `attack`'s load worker isolate (runner/worker/early_worker.ts), whose modules then load at the same
 * time on the other core. Not when a flag asks for other limits (more workers, another memory limit):
 * the run could not take it.
 */
import { startEarlyWorker } from "../runner/worker/early_worker.ts";

const OTHER_LIMITS = /^(-w|--workers|--cpus|--max-memory-mb)(=|$)|^-w\d/;

export function startEarly(command: string, args: string[]): void {
  if (command === "attack" && !args.some((arg) => OTHER_LIMITS.test(arg))) void startEarlyWorker();
}
