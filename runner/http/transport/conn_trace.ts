/**
 * @module
 * A per-connection event trace for hunting lost requests, off unless the environment variable
 * `LOADLAB_TRACE` contains `conn` (docs/lab/PERFORMANCE_NOTES.md, "Lost requests"). Each event is one line on
 * stderr: `trace conn <epoch ms> <connection id> fd=<fd> <event> <detail>`, where the events are
 * `connect` (issued), `connected`, `connect-failed`, `written`, `first-byte`, `done`, `failed`,
 * `closed`, and the epoll pump's own (`event` for every readiness event it dispatches, `stray` for
 * events it could not hand to a socket). Epoch milliseconds so lines of every worker isolate sort
 * together. When off, every call site is one test of a constant: nothing is built on the hot path.
 */
import type { TransportConn } from "./transport.ts";

function traceWanted(): boolean {
  try {
    return (Deno.env.get("LOADLAB_TRACE") ?? "").split(",").includes("conn");
  } catch {
    return false; // no --allow-env: the trace stays off
  }
}

/** True when `LOADLAB_TRACE` asks for the connection trace (read once per isolate). */
export const TRACE_CONN: boolean = traceWanted();

/** Writes one trace line (call only under `if (TRACE_CONN)`). */
export function traceConn(id: number | string, fd: number, event: string, detail = ""): void {
  const epochMs = (performance.timeOrigin + performance.now()).toFixed(3);
  console.error(`trace conn ${epochMs} ${id} fd=${fd} ${event}${detail ? " " + detail : ""}`);
}

/** The socket's file descriptor for the trace (epoll sockets have one; Deno.Conn: -1). */
export function fdOf(sock: TransportConn | null): number {
  return sock !== null && "fd" in sock && typeof sock.fd === "number" ? sock.fd : -1;
}
