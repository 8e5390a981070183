/**
 * @module
 * How a connection's failures are named: a socket error's kind, and the messages of the other failures.
 */
import type { ErrorKind } from "../../results/mod.ts";
import { formatCap } from "../../system/read_capped.ts";

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

/** A connect given up at the timeout, with why it had not completed where the transport can tell (epoll). */
export function connectTimeoutMessage(timeoutMs: number, err: unknown): string {
  const why = err instanceof Deno.errors.Interrupted && err.message
    ? err.message
    : "the connect was still under way (the SYN unanswered, or its completion not yet seen)";
  return `no connection within ${timeoutMs} ms: ${why}`;
}

/** A response given up at the timeout, with how much of it had come (roughly, so messages stay few). */
export function responseTimeoutMessage(timeoutMs: number, err: unknown, arrivedBytes = 0): string {
  const prefix = "socket closed: ";
  const message = err instanceof Deno.errors.BadResource ? err.message : "";
  const state = message.startsWith(prefix) ? message.slice(prefix.length) : "";
  if (arrivedBytes <= 0) return `no response within ${timeoutMs} ms${state ? `: ${state}` : ""}`;
  const then = state === "" || state === NOTHING_ARRIVED ? "" : `, then ${state}`;
  return `no complete response within ${timeoutMs} ms: ${
    bytesRoughly(arrivedBytes)
  } of it had arrived${then}`;
}

/** What the epoll transport's `socket closed: ...` says when the kernel held nothing for the read. */
export const NOTHING_ARRIVED = "nothing had arrived";

/** A byte count by its order of magnitude ("over 10 MiB", "under 1 KiB"): a handful of texts in all. */
export function bytesRoughly(bytes: number): string {
  if (bytes < 1024) return "under 1 KiB";
  let unit = 1024;
  while (unit * 1024 <= bytes && unit < 1024 ** 3) unit *= 1024;
  let step = unit;
  while (step * 10 <= bytes) step *= 10;
  return `over ${formatCap(step)}`;
}

export const CLOSED_EARLY = "connection closed before the response ended";
/** No byte of the response came (a server may close a kept-alive connection at any time, RFC 9112 9.3). */
export const CLOSED_UNANSWERED = "connection closed before the response began";
export const UNSOLICITED = "bytes after the end of the response (a body longer than its Content-Length?)";
