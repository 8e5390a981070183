/**
 * @module
 * The epoll and io_uring transports' failures as errors a connection counts, each saying why. Off hot path.
 */
import { EAGAIN, EINPROGRESS } from "./epoll/ffi.ts";
import type { EpollSys } from "./epoll/ffi.ts";
import type { SockAddr } from "./sock_addr.ts";
import { TLS_FAILED, TLS_TRUNCATED } from "../tls/openssl_ffi.ts";
import { NOTHING_ARRIVED } from "../exchange_errors.ts";

/** errno -> a message like Deno's (`Connection refused (os error 111)`). */
export function errnoMessage(errno: number): string {
  const names: Record<number, string> = {
    32: "Broken pipe",
    99: "Cannot assign requested address",
    101: "Network is unreachable",
    103: "Software caused connection abort",
    104: "Connection reset by peer",
    110: "Connection timed out",
    111: "Connection refused",
    113: "No route to host",
    24: "Too many open files",
  };
  return `${names[errno] ?? "OS error"} (os error ${errno})`;
}

/** A connect that failed, its message saying why: refused, or the kernel gave up retrying its SYN. */
export function connectError(errno: number, addr: SockAddr): Error {
  const message = `${errnoMessage(errno)} connecting to ${addr.text}`;
  if (errno === 111) return new Deno.errors.ConnectionRefused(`refused: ${message}`);
  if (errno === 110) return new Deno.errors.TimedOut(`timed out at the kernel's SYN retries: ${message}`);
  return new Deno.errors.ConnectionAborted(message);
}

const probe = new Uint8Array(1);

/**
 * What a read cut while waiting had in the kernel: bytes unread (a late or lost event) or none. Over TLS they
 * may be records that are no response (a session ticket), so `tls` names them as records.
 */
export function readStateOf(sys: EpollSys, fd: number, tls = false): string {
  const n = sys.read(fd, probe);
  const what = tls ? "TLS records had" : "a response had";
  if (n > 0) return `${what} arrived but not been read yet (its readiness event late or lost)`;
  if (n === 0) return "the peer had closed the connection";
  if (n === -EAGAIN) return NOTHING_ARRIVED;
  return errnoMessage(-n);
}

/** A connect that never left this host: no socket, or it could not be watched. */
export function notAttemptedError(step: string, errno: number, addr: SockAddr): Error {
  return new Deno.errors.ConnectionAborted(
    `never attempted (${step} failed: ${errnoMessage(errno)}) connecting to ${addr.text}`,
  );
}

const EISCONN = 106;
const EALREADY = 114;

/** Where a cut connect stood: EALREADY (SYN unanswered) or EISCONN (connected, event not seen). */
export function connectStateOf(sys: EpollSys, fd: number, addr: SockAddr): string {
  const rc = sys.connect(fd, addr);
  if (rc === -EALREADY || rc === -EINPROGRESS) {
    return "the SYN was not answered (the kernel was still retrying it: dropped, e.g. at a full accept queue)";
  }
  if (rc === 0 || rc === -EISCONN) {
    return "the kernel had connected, but loadlab had not seen it yet (its readiness event late or lost)";
  }
  return `the connect had failed: ${errnoMessage(-rc)}`;
}

/** A TLS read's or write's own failure, or null; `InvalidData` counts as `tls`, as on the deno transport. */
function tlsError(code: number, detail: string): Error | null {
  if (code === TLS_TRUNCATED) {
    return new Deno.errors.ConnectionReset(
      "the server closed the connection without a TLS close_notify (what it sent may be truncated)",
    );
  }
  if (code === TLS_FAILED) return new Deno.errors.InvalidData(`tls session failed: ${detail}`);
  return null;
}

export function readError(errno: number, tlsDetail = ""): Error {
  const tls = tlsError(errno, tlsDetail);
  if (tls !== null) return tls;
  if (errno === 104) return new Deno.errors.ConnectionReset(errnoMessage(errno));
  return new Deno.errors.ConnectionAborted(errnoMessage(errno));
}

export function writeError(errno: number, tlsDetail = ""): Error {
  const tls = tlsError(errno, tlsDetail);
  if (tls !== null) return tls;
  if (errno === 32) return new Deno.errors.BrokenPipe(errnoMessage(errno));
  return new Deno.errors.ConnectionReset(errnoMessage(errno));
}
