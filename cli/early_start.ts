/**
 * @module
 * Starts the load worker isolate of `attack`, `ghz` and `run` (for `run SCRIPT` also its options' isolate and
 * type check) as main.ts's first import, to run while the command loads; not when a flag asks other limits.
 */
import { resolve } from "node:path";
import { SESSIONS_YOUNG_MB, startEarlyWorker } from "../runner/worker/load_worker.ts";
import { startEarlyHost } from "../runner/script/host/host.ts";

const OTHER_LIMITS = /^(-w|--workers|--cpus|--max-memory-mb)(=|$)|^-w\d/;
const SCRIPT = /\.(ts|js|mjs|py)$/;

export function startEarly(command: string, args: string[]): void {
  if (!["attack", "ghz", "run"].includes(command)) return;
  const script = command === "run" && SCRIPT.test(args[0] ?? "");
  if (!args.some((arg) => OTHER_LIMITS.test(arg))) {
    void startEarlyWorker(script ? SESSIONS_YOUNG_MB : undefined);
    if (script) startEarlyHost();
  }
  if (script && !args[0].endsWith(".py")) {
    // Imported after the isolates' start, which it would otherwise hold back.
    const path = resolve(args[0]);
    void import("./script_type_check.ts").then((check) => check.startEarlyTypeCheck(path));
  }
}
