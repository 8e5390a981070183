/**
 * @module
 * Starts the load worker isolate of `attack`, `ghz` and `run` before the command's modules load (main.ts
 * imports this first), so it loads while the command plans; not when a flag asks for other limits.
 */
import { SESSIONS_YOUNG_MB, startEarlyWorker } from "../runner/worker/load_worker.ts";

const OTHER_LIMITS = /^(-w|--workers|--cpus|--max-memory-mb)(=|$)|^-w\d/;
const SCRIPT = /\.(ts|js|mjs|py)$/;

export function startEarly(command: string, args: string[]): void {
  if (!["attack", "ghz", "run"].includes(command) || args.some((arg) => OTHER_LIMITS.test(arg))) return;
  void startEarlyWorker(command === "run" && SCRIPT.test(args[0] ?? "") ? SESSIONS_YOUNG_MB : undefined);
}
