/**
 * @module
 * Starts the load worker isolate of `attack`, `ghz` and `run`, and for `run SCRIPT` the isolate its options
 * are read in, before the command's modules load (main.ts imports this first), so they load while the
 * command plans; not when a flag asks for other limits.
 */
import { SESSIONS_YOUNG_MB, startEarlyWorker } from "../runner/worker/load_worker.ts";
import { startEarlyHost } from "../runner/script/host/host.ts";

const OTHER_LIMITS = /^(-w|--workers|--cpus|--max-memory-mb)(=|$)|^-w\d/;
const SCRIPT = /\.(ts|js|mjs|py)$/;

export function startEarly(command: string, args: string[]): void {
  if (!["attack", "ghz", "run"].includes(command) || args.some((arg) => OTHER_LIMITS.test(arg))) return;
  const script = command === "run" && SCRIPT.test(args[0] ?? "");
  void startEarlyWorker(script ? SESSIONS_YOUNG_MB : undefined);
  if (script) startEarlyHost();
}
