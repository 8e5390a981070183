/**
 * @module
 * A per-connection event trace for hunting lost requests, on when `LOADLAB_TRACE` contains `conn`: one stderr
 * line per event, epoch ms so workers' lines sort together. When off, each call site tests one constant.
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
