/**
 * @module
 * The WebSocket totals of a script load whose sessions open WebSockets of their own (k6's `k6/ws`,
 * runner/script/k6/ws.ts): one `WsStats` per worker isolate, made when such a module loads, which the load
 * (runner/load/run_prepared.ts) counts as it counts a flow's ws steps: handshakes and their time, messages
 * and payload bytes each way, pings, pongs and closes, in the run's `ws` section and its intervals. A
 * script that loads no such module leaves it null, and its run has no `ws` section.
 */
import { WsStats } from "../http/ws/stats.ts";

let stats: WsStats | null = null;

/** The isolate's script WebSocket totals, made on first call (a module that opens WebSockets calls it). */
export function openScriptWsStats(): WsStats {
  return stats ??= new WsStats();
}

/** The totals, when a module of the script opens WebSockets; else null. */
export function scriptWsStats(): WsStats | null {
  return stats;
}
