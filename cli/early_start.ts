/**
 * @module
 * What a command starts before its own modules load, imported by main.ts ahead of the command's module:
 * `attack`'s load worker isolate (runner/worker/early_worker.ts), whose modules then load at the same
 * time on the other core.
 */
import { startEarlyWorker } from "../runner/worker/early_worker.ts";

export function startEarly(command: string): void {
  if (command === "attack") void startEarlyWorker();
}
