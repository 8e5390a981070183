/**
 * @module
 * The connect of every engine connection, HTTP/1.1 or HTTP/2: through the worker's connect gate (the
 * wait for it is not part of the connect), given up at the timeout, recorded the same way (the connect
 * time apart from a TLS handshake, reconnects), or counted by kind when it fails (a TLS failure with
 * its hint). Who enforces the timeout differs: an HTTP/1.1 connection is watched by the worker's
 * watchdog (the `DialWatch` gets the deadline, the watchdog sets `timedOut` and aborts), while an
 * HTTP/2 connection has none watching it (the watchdog watches streams), so its dialer arms a timer of
 * its own, once per connect. Nothing here runs per request.
 */
import type { ConnectionShared } from "../load_connection.ts";
import { classifyError, connectTimeoutMessage, errorMessage } from "../exchange_errors.ts";
import { tlsFailureMessage } from "../tls/options.ts";
import { fdOf, TRACE_CONN, traceConn } from "./conn_trace.ts";
import type { TransportConn } from "./transport.ts";

/** A connection the watchdog watches during its connect (an HTTP/1.1 `Connection`). */
export interface DialWatch {
  readonly id: number;
  /** Set to the connect's deadline while it runs, Infinity after. */
  deadlineMs: number;
  /** Set by the watchdog before it aborts: the failed connect is then a timeout. */
  timedOut: boolean;
  /** When the connect ended (connected or failed). */
  lastEventMs: number;
  /** Takes the new socket in the turn it connected, before anything else can run. */
  adopt(sock: TransportConn): void;
}

export class Dialer {
  #connecting: AbortController | null = null;
  /** Our own timer gave up (no watch only). */
  #timedOut = false;
  #everOpened = false;
  /** Our own timer's handler (no watch only), bound once on its first connect. */
  #onTimeout: (() => void) | null = null;

  /** `watch`: the watchdog enforces the timeout through it; null: a timer of our own does. */
  constructor(readonly shared: ConnectionShared, readonly watch: DialWatch | null) {}

  #giveUp(): void {
    this.#timedOut = true;
    this.#connecting?.abort();
  }

  /** Aborts the connect under way, if any (watchdog timeout or shutdown). */
  abort(): void {
    this.#connecting?.abort();
  }

  /** A close of our own (per-arrival): the next connect is a new connection, not a reconnect. */
  forgetOpened(): void {
    this.#everOpened = false;
  }

  /**
   * Dials once the gate has room; the socket, or null when the connect failed (counted) or the run stops.
   * One async frame for the gate's wait and the connect: a crowd opening at once keeps one a connect.
   */
  async dial(): Promise<TransportConn | null> {
    const gate = this.shared.connectGate;
    const wait = gate.acquire();
    if (wait !== undefined) await wait;
    if (this.shared.stopping) {
      gate.release();
      return null;
    }
    const { timeoutMs } = this.shared;
    const watch = this.watch;
    const startMs = performance.now();
    this.#timedOut = false;
    if (watch !== null) {
      watch.deadlineMs = startMs + timeoutMs;
      watch.timedOut = false;
      if (TRACE_CONN) traceConn(watch.id, -1, "connect", `port=${this.shared.port}`);
    }
    const connecting = new AbortController();
    this.#connecting = connecting;
    const timer = watch === null
      ? setTimeout(this.#onTimeout ??= () => this.#giveUp(), timeoutMs)
      : undefined;
    let sock: TransportConn;
    try {
      sock = await this.shared.transport(this.shared.hostname, this.shared.port, connecting.signal);
      watch?.adopt(sock);
    } catch (err) {
      this.#failed(err);
      return null;
    } finally {
      gate.release();
      clearTimeout(timer);
      this.#connecting = null;
      if (watch !== null) watch.deadlineMs = Infinity;
    }
    this.#connected(sock, startMs);
    return sock;
  }

  /** A connect failed: counted by kind (a timeout as one), unless the run is stopping. */
  #failed(err: unknown): void {
    const { recorder, timeoutMs } = this.shared;
    const watch = this.watch;
    const failedMs = performance.now();
    if (watch !== null) watch.lastEventMs = failedMs;
    const timedOut = watch !== null ? watch.timedOut : this.#timedOut;
    const message = timedOut ? connectTimeoutMessage(timeoutMs, err) : errorMessage(err);
    if (TRACE_CONN && watch !== null) traceConn(watch.id, -1, "connect-failed", message);
    if (!this.shared.stopping) {
      const kind = classifyError(err, "connect");
      recorder.recordError(failedMs, kind, kind === "tls" ? tlsFailureMessage(message) : message);
    }
  }

  /** A connect succeeded: its time recorded apart from a TLS handshake, a reconnect counted. */
  #connected(sock: TransportConn, startMs: number): void {
    const recorder = this.shared.recorder;
    const watch = this.watch;
    const nowMs = performance.now();
    if (watch !== null) {
      watch.lastEventMs = nowMs;
      if (TRACE_CONN) traceConn(watch.id, fdOf(sock), "connected", `in ${(nowMs - startMs).toFixed(2)} ms`);
    }
    recorder.connections++;
    // A TLS transport times its handshake; the connect time is the TCP part (the dial without it).
    const tlsMs = (sock as { tlsMs?: number }).tlsMs ?? -1;
    recorder.connected(nowMs, (nowMs - startMs - Math.max(tlsMs, 0)) * 1000, tlsMs * 1000);
    if (this.#everOpened) recorder.reconnected(nowMs);
    this.#everOpened = true;
  }
}

/** The end of what `dial` began: the socket closed (one already closed is fine) and no longer counted. */
export function hangUp(shared: ConnectionShared, sock: TransportConn): void {
  shared.recorder.connections--;
  try {
    sock.close();
  } catch { /* already closed */ }
}
