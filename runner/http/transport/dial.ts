/**
 * @module
 * The connect of every engine connection: through the worker's connect gate, given up at the timeout,
 * recorded or counted by kind. On epoll the connect ends in callbacks: no promise or listener per connect.
 */
import type { ConnectionShared } from "../load_connection.ts";
import type { ErrorKind } from "../../../results/mod.ts";
import { classifyError, connectTimeoutMessage, errorMessage } from "../exchange_errors.ts";
import { tlsFailureMessage } from "../tls/material.ts";
import { fdOf, TRACE_CONN, traceConn } from "./conn_trace.ts";
import type { ConnectWaiter, TransportConn } from "./transport.ts";
import { closeQuietly } from "../../../system/descriptors.ts";

/** A connection the watchdog watches during its connect (an HTTP/1.1 `Connection`). */
interface DialWatch {
  readonly id: number;
  deadlineMs: number;
  timedOut: boolean;
  lastEventMs: number;
  /** Takes the new socket in the turn it connected, before anything else can run. */
  adopt(sock: TransportConn): void;
  /** The last connect's TCP time and TLS handshake's (ms; -1: none), for a script's `res.timings`. */
  dialedConnectMs?: number;
  dialedTlsMs?: number;
}

/** Told once how a dial ended (`Dialer.dialThen`): its socket, or null when it failed or the run stops. */
export interface DialEnd {
  dialEnded(sock: TransportConn | null): void;
}

export class Dialer implements ConnectWaiter {
  #connecting: AbortController | null = null;
  /** A callback connect's socket while it connects (closing it aborts the connect). */
  #pending: TransportConn | null = null;
  #waiting = false;
  /** Inside the transport's call: an end told then is passed on in a microtask, as a promise would. */
  #inCall = false;
  #startMs = 0;
  #done: DialEnd | null = null;
  #result: TransportConn | null = null;
  #timedOut = false;
  #everOpened: boolean;
  /** The last failed connect's kind and message; counted here unless `quiet` (gRPC counts its calls). */
  quiet = false;
  failedKind: ErrorKind = "connect";
  failedMessage = "";
  #timer: ReturnType<typeof setTimeout> | undefined = undefined;
  /** Handlers bound once (the timer's, the gate's, the promise transports', a deferred end's, `dial`'s). */
  #onTimeout: (() => void) | null = null;
  #onGate: (() => void) | null = null;
  #onSock: ((sock: TransportConn) => void) | null = null;
  #onFail: ((err: unknown) => void) | null = null;
  #onEnded: (() => void) | null = null;
  /** The endpoint of the request the dial is for: a failed connect counts under it (-1: none). */
  endpoint = -1;

  /** `watch`: the watchdog's handle (null: a timer of our own); `everOpened`: next is a reconnect. */
  constructor(readonly shared: ConnectionShared, readonly watch: DialWatch | null, everOpened = false) {
    this.#everOpened = everOpened;
  }

  #giveUp(): void {
    this.#timedOut = true;
    this.abort();
  }

  abort(): void {
    this.#connecting?.abort();
    const pending = this.#pending;
    this.#pending = null;
    pending?.close();
  }

  /** A close of our own (per-arrival): the next connect is a new connection, not a reconnect. */
  forgetOpened(): void {
    this.#everOpened = false;
  }

  /** Dials once the gate has room; the socket, or null when the connect failed (counted) or the run stops. */
  dial(): Promise<TransportConn | null> {
    return new Promise((resolve) => this.dialThen({ dialEnded: resolve }));
  }

  /** `dial` without its promise: `done` is called once, never inside this call. */
  dialThen(done: DialEnd): void {
    this.#done = done;
    const wait = this.shared.connectGate.acquire();
    if (wait === undefined) this.#start();
    else wait.then(this.#onGate ??= () => this.#start());
  }

  #start(): void {
    if (this.shared.stopping) {
      this.shared.connectGate.release();
      this.#result = null;
      queueMicrotask(this.#onEnded ??= () => this.#passOn());
      return;
    }
    const { connectTimeoutMs, timeoutMs, connectBy } = this.shared;
    const watch = this.watch;
    this.#startMs = performance.now();
    this.#timedOut = false;
    if (watch !== null) {
      watch.deadlineMs = this.#startMs + (connectTimeoutMs ?? timeoutMs);
      watch.timedOut = false;
      if (TRACE_CONN) traceConn(watch.id, -1, "connect", `port=${this.shared.port}`);
    } else this.#timer = setTimeout(this.#onTimeout ??= () => this.#giveUp(), connectTimeoutMs ?? timeoutMs);
    this.#waiting = true;
    if (connectBy) {
      this.#inCall = true;
      const sock = connectBy(this);
      this.#inCall = false;
      if (this.#waiting) this.#pending = sock;
      return;
    }
    const connecting = new AbortController();
    this.#connecting = connecting;
    this.shared.transport(this.shared.hostname, this.shared.port, connecting.signal).then(
      this.#onSock ??= (sock) => this.connected(sock),
      this.#onFail ??= (err) => this.connectFailed(err),
    );
  }

  #settle(): void {
    this.#waiting = false;
    this.#pending = null;
    this.#connecting = null;
    this.shared.connectGate.release();
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.watch !== null) this.watch.deadlineMs = Infinity;
  }

  /** The transport's socket, connected (ConnectWaiter): adopted at once, before anything else runs. */
  connected(sock: TransportConn): void {
    this.#settle();
    try {
      // One the run's end aborted too late: no connection would close it.
      if (this.shared.stopping) throw new Deno.errors.Interrupted("the run ended while it connected");
      this.watch?.adopt(sock);
    } catch (err) {
      closeQuietly(sock);
      this.#end(null, err);
      return;
    }
    this.#connected(sock, this.#startMs);
    this.#end(sock, null);
  }

  connectFailed(err: unknown): void {
    this.#settle();
    this.#end(null, err);
  }

  #end(sock: TransportConn | null, err: unknown): void {
    if (sock === null) this.#failed(err);
    this.#result = sock;
    if (this.#inCall) queueMicrotask(this.#onEnded ??= () => this.#passOn());
    else this.#passOn();
  }

  #passOn(): void {
    const done = this.#done!;
    const sock = this.#result;
    this.#done = null;
    this.#result = null;
    done.dialEnded(sock);
  }

  /** A connect failed: counted by kind (a timeout as one), unless the run is stopping. */
  #failed(err: unknown): void {
    const { recorder, connectTimeoutMs, timeoutMs } = this.shared;
    const watch = this.watch;
    const failedMs = performance.now();
    if (watch !== null) watch.lastEventMs = failedMs;
    const timedOut = watch !== null ? watch.timedOut : this.#timedOut;
    const message = timedOut ? connectTimeoutMessage(connectTimeoutMs ?? timeoutMs, err) : errorMessage(err);
    if (TRACE_CONN && watch !== null) traceConn(watch.id, -1, "connect-failed", message);
    const kind = this.failedKind = classifyError(err, "connect");
    this.failedMessage = kind === "tls" ? tlsFailureMessage(message) : message;
    if (!this.shared.stopping && !this.quiet) {
      recorder.recordError(failedMs, kind, this.failedMessage, this.endpoint);
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
    const connectMs = nowMs - startMs - Math.max(tlsMs, 0);
    recorder.connected(nowMs, connectMs * 1000, tlsMs * 1000);
    if (watch !== null) watch.dialedConnectMs = connectMs, watch.dialedTlsMs = tlsMs;
    if (this.#everOpened) recorder.reconnected(nowMs);
    this.#everOpened = true;
  }
}

/** The end of what `dial` began: the socket closed (one already closed is fine) and no longer counted. */
export function hangUp(shared: ConnectionShared, sock: TransportConn): void {
  shared.recorder.connections--;
  closeQuietly(sock);
}
