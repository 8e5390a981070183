/**
 * @module
 * The WebSocket totals of a script load whose sessions open WebSockets of their own (k6's `k6/ws`,
 * runner/script/k6/ws.ts): one `WsStats` per worker isolate, made when such a module loads, which the load
 * (runner/load/run_prepared.ts) counts as it counts a flow's ws steps: handshakes and their time, messages
 * and payload bytes each way, pings, pongs and closes, in the run's `ws` section and its intervals. A
 * script that loads no such module leaves it null, and its run has no `ws` section. Their errors (a
 * message past k6/ws's cap) count in the session's run through `COUNT_ERROR`, a method of loadlab's
 * sessions (session.ts) a k6 module reaches without importing the engine behind them.
 */
import { WsStats } from "../../http/ws/stats.ts";

let stats: WsStats | null = null;

/** The isolate's script WebSocket totals, made on first call (a module that opens WebSockets calls it). */
export function openScriptWsStats(): WsStats {
  return stats ??= new WsStats();
}

/** The totals, when a module of the script opens WebSockets; else null. */
export function scriptWsStats(): WsStats | null {
  return stats;
}

/** The key of a session's method that counts an error in its run (session.ts implements it). */
export const COUNT_ERROR = Symbol("count error");

/** An error of a script's own WebSocket, by the kind loadlab's flows count it under. */
export type ScriptWsErrorKind = "ws-too-big";

/** Counts an error of `kind` in the run of session `s`; nothing when `s` is not one of loadlab's sessions. */
export function countSessionError(s: object, kind: ScriptWsErrorKind, message: string): void {
  const count = (s as { [COUNT_ERROR]?: unknown })[COUNT_ERROR];
  if (typeof count === "function") count.call(s, kind, message);
}
