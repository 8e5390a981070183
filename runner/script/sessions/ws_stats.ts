/**
 * @module
 * The WebSocket totals of script sessions' own sockets (k6/ws), counted as a flow's ws steps are.
 */
import { WsStats } from "../../http/ws/stats.ts";

let stats: WsStats | null = null;

/** The isolate's script WebSocket totals, made on first call (a module that opens WebSockets calls it). */
export function openScriptWsStats(): WsStats {
  return stats ??= new WsStats();
}

export function scriptWsStats(): WsStats | null {
  return stats;
}

/** The key of a session's method that counts an error in its run (session.ts implements it). */
export const COUNT_ERROR = Symbol("count error");

export type ScriptWsErrorKind = "ws-too-big";

/** Counts an error of `kind` in the run of session `s`; nothing when `s` is not one of loadlab's sessions. */
export function countSessionError(s: object, kind: ScriptWsErrorKind, message: string): void {
  const count = (s as { [COUNT_ERROR]?: unknown })[COUNT_ERROR];
  if (typeof count === "function") count.call(s, kind, message);
}
