/**
 * @module
 * How a connection's failures are named: the error kind a socket error counts under, and the
 * messages of failures that are not socket errors. Counted by kind, never thrown (STYLE rule 8).
 */
import type { ErrorKind } from "../../results/mod.ts";

/** Maps a socket error to the kind we count it under. */
export function classifyError(err: unknown, phase: "connect" | "write" | "read"): ErrorKind {
  if (phase === "connect") {
    return err instanceof Deno.errors.InvalidData || /certificate|tls|handshake/i.test(String(err))
      ? "tls"
      : "connect";
  }
  if (err instanceof Deno.errors.TimedOut) return "timeout";
  if (err instanceof Deno.errors.InvalidData) return "tls";
  if (phase === "write") return "write";
  return "reset";
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export const CLOSED_EARLY = "connection closed before the response ended";
export const UNSOLICITED = "bytes after the end of the response (a body longer than its Content-Length?)";
