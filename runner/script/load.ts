/**
 * @module
 * The worker's side of a session script: `loadScript` imports it before t0 and `scriptArrival` makes the
 * arrival the executors call. A worker imports this module only when its load has a script.
 */
import { basename } from "node:path";
import type { AttackConfig } from "../config.ts";
import type { Arrival } from "../load/executor.ts";
import type { SessionRun } from "../load/flow_session.ts";
import { importScript, type ScriptModule } from "./module.ts";
import { restoreChangedIntrinsics } from "./intrinsics.ts";
import { builtInChangeMessage } from "../../results/conclude/responses.ts";
import { ScriptSessions } from "./sessions/worker_sessions.ts";
import type { ScriptPlace } from "./sessions/context.ts";
import { guardScriptConsole } from "./sessions/names.ts";
import { scriptWsStats } from "./sessions/ws_stats.ts";

/** The script's module imported in this worker, and what makes its arrivals and counts its WebSockets. */
export async function loadScript(script: NonNullable<AttackConfig["script"]>) {
  guardScriptConsole(script.env);
  const module = await importScript(script.path);
  return { arrival: scriptArrival.bind(null, module), wsStats: scriptWsStats };
}

export type LoadedScript = Awaited<ReturnType<typeof loadScript>>;

function scriptArrival(module: ScriptModule, run: SessionRun, place: ScriptPlace) {
  const { config } = place;
  const script = config.script!;
  const sessions = new ScriptSessions(module, place);
  // A promise the script dropped and that failed: counted; the listener stays for the isolate's life.
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
    : (conn, intendedMs, next, cut) =>
      sessions.run(cut ? { ...run, ended: AbortSignal.any([run.ended, cut]) } : run, conn, intendedMs, next);
  const told = new Set<string>();
  return {
    sessions,
    arrival,
    settled: () => new Promise<void>((resolve) => setTimeout(resolve, 0)),
    // A built-in the engine relies on, changed by a session, is put back before the next tick and counted.
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
