/**
 * @module
 * The worker's side of a session script, as run_load.ts uses it: `loadScript` imports the script before
 * t0 (so its loading never eats into the schedule) and counts its unhandled rejections from then on;
 * `scriptArrival` makes the arrival the executors call (one session per arrival or per turn of a
 * connection, a connection per arrival with `per-arrival`).
 */
import { basename } from "node:path";
import type { AttackConfig } from "../config.ts";
import type { Arrival } from "../load/executor.ts";
import type { SessionRun } from "../load/flow_session.ts";
import type { Feeder } from "../load/feeder.ts";
import { importScript, type ScriptModule } from "./script_module.ts";
import { restoreChangedIntrinsics } from "./script_intrinsics.ts";
import { builtInChangeMessage } from "../../results/conclude/builtin_changes.ts";
import { ScriptSessions } from "./script_sessions.ts";
import { guardScriptConsole } from "./script_names.ts";
import type { Session } from "./session.ts";

/** The script's module, imported in this worker; null when the load has no script. */
export function loadScript(config: AttackConfig): Promise<ScriptModule> | null {
  if (config.script === undefined) return null;
  guardScriptConsole(config.script.env);
  return importScript(config.script.path);
}

/** Where the worker is, for `scriptArrival`. */
export interface ScriptPlace {
  config: AttackConfig;
  originMs: number;
  feeder: Feeder | null;
  workerIndex: number;
  workerCount: number;
}

/** The sessions of `module` and the arrival that runs them. */
export function scriptArrival(
  module: ScriptModule,
  run: SessionRun,
  place: ScriptPlace,
): {
  sessions: ScriptSessions;
  arrival: Arrival;
  settled(): Promise<void>;
  guard(): void;
  dispose(): void;
} {
  const { config } = place;
  const script = config.script!;
  // Named by the script's file; a locustfile's conversion (NAME.py.js) by the locustfile.
  const sessions = new ScriptSessions(module.run as (s: Session) => unknown, {
    url: new URL(config.url),
    path: script.path,
    originMs: place.originMs,
    feeder: place.feeder,
    columns: config.data?.columns ?? [],
    cookies: config.cookies ?? true,
    setupData: script.setupData,
    env: script.env,
    routes: script.routes,
    workerIndex: place.workerIndex,
    workerCount: place.workerCount,
    start: module.start as ((s: Session) => unknown) | null,
    grpc: module.grpc,
  }, basename(script.path).replace(/\.py\.js$/, ".py"));
  // A promise the script dropped and that failed: counted, and kept from ending the worker. The listener
  // stays for the isolate's life: a rejection noticed after the load (its last session's) ends nothing.
  let counting = true;
  globalThis.addEventListener("unhandledrejection", (e: PromiseRejectionEvent) => {
    e.preventDefault();
    if (counting) sessions.unhandled(e.reason, run.shared);
  });
  const perArrival = config.connection === "per-arrival";
  const arrival: Arrival = perArrival
    ? async (conn, intendedMs) => {
      try {
        return await sessions.run(run, conn, intendedMs);
      } finally {
        conn.release();
      }
    }
    : (conn, intendedMs, next) => sessions.run(run, conn, intendedMs, next);
  const told = new Set<string>();
  return {
    sessions,
    arrival,
    // One event-loop turn: the runtime reports the rejections of the last turns (counted above).
    settled: () => new Promise<void>((resolve) => setTimeout(resolve, 0)),
    // A session that changes a built-in the engine in this isolate relies on (`Array.prototype.push`: the
    // samples it encoded no longer decoded, and the whole run was lost) has it put back on the worker's
    // next tick, before its clock is read or anything is posted, and the change counted once as a script
    // error.
    guard() {
      for (const name of restoreChangedIntrinsics(module.builtIns)) {
        if (told.has(name)) continue;
        told.add(name);
        const message = builtInChangeMessage(basename(script.path), name);
        run.shared.recorder.recordError(performance.now(), "script", message);
      }
    },
    dispose: () => {
      counting = false;
    },
  };
}
