/**
 * @module
 * The socket side of an HTTP/1.1 load connection (connection.ts adds the response side). HOT PATH: writes
 * pre-encoded bytes unawaited and reads into one reused buffer; the pump (epoll, io_uring, or Deno's sockets
 * through transport/promise_inline.ts) hands reads to `consume` by callback and chains a closed loop's
 * exchanges under one promise. Timeouts come from the worker's watchdog (`deadlineMs` + `abort`), so no
 * timer is armed per request.
 */
import type { ErrorKind } from "../../../results/mod.ts";
import type { EncodedRequest } from "../request.ts";
import { RequestPicker } from "../request_picker.ts";
import type { ConnectionShared, LoadConnection, NextExchange } from "../load_connection.ts";
import { Dialer, hangUp } from "../transport/dial.ts";
import { fdOf, TRACE_CONN, traceConn } from "../transport/conn_trace.ts";
import { type InlineConn, inlineOf, type InlineReader, type TransportConn } from "../transport/transport.ts";
import { PromiseInline } from "../transport/promise_inline.ts";
import type { SslConn, SslNegotiated } from "../tls/openssl_conn.ts";

const READ_BUFFER_BYTES = 32 * 1024;
const EMPTY = new Uint8Array(0);
/**
 * The read buffer of every epoll and io_uring connection of this isolate: `consume` keeps none of the
 * bytes, so one buffer serves all. A read of Deno's sockets lands while others run, so it has its own.
 */
const INLINE_READ = new Uint8Array(READ_BUFFER_BYTES);
/** The one executor of every exchange's promise: hands its resolver out here, so no closure per exchange. */
let caught: ((done: number) => void) | null = null;
const CATCH = (resolve: (done: number) => void) => {
  caught = resolve;
};

export abstract class ConnectionIo implements LoadConnection, InlineReader {
  /** Watchdog deadline (performance.now() ms) of the exchange in progress; Infinity when idle. */
  deadlineMs = Infinity;
  /** The exchange's timeout (the run's, or a script request's own): what its failure says. */
  exchangeTimeoutMs = 0;
  /** Set by the watchdog before it aborts the socket, so the failed read is counted as a timeout. */
  timedOut = false;
  /** `performance.now()` when the last exchange ended: closed loops reuse it instead of asking again. */
  lastEventMs = 0;
  /** The last connect's TCP and TLS times (ms), until a script's response takes them (`takeDial`). */
  dialedConnectMs = -1;
  dialedTlsMs = -1;
  /** The socket, Deno's seen as inline (transport/promise_inline.ts). */
  protected sock: InlineConn | null = null;
  readonly #dialer: Dialer;
  #opening: ((resolve: (open: boolean) => void) => void) | null = null;
  #onDialed: ((sock: TransportConn | null) => void) | null = null;
  #opened: ((open: boolean) => void) | null = null;
  protected buf: Uint8Array = EMPTY;
  protected readonly requests: RequestPicker;
  protected intendedMs = 0;
  protected sentMs = 0;
  protected depth = 0;
  /** Requests of the exchange handled (answered, or failed and counted) and answered. */
  protected done = 0;
  protected answered = 0;
  protected active = false;
  #writing: Uint8Array = EMPTY;
  #writeOffset = 0;
  protected writeError: unknown = null;
  #settle: ((done: number) => void) | null = null;
  #next: NextExchange | null = null;
  /** Handlers of an un-awaited write, bound on first use (never, when the kernel takes writes whole). */
  #onWritten: ((n: number) => void) | null = null;
  #onWriteError: ((err: unknown) => void) | null = null;

  constructor(readonly id: number, readonly shared: ConnectionShared, readonly maxDepth = 1) {
    this.requests = new RequestPicker(shared.mix, maxDepth, shared.rows ?? null);
    this.#dialer = new Dialer(shared, this);
  }

  /** Takes `n` bytes read into `buf` (null: end of stream); true when the exchange is over. */
  protected abstract consume(n: number | null, nowMs: number): boolean;

  /** A failed read: counts the exchange's unanswered requests and closes the socket. */
  protected abstract fail(err: unknown): void;

  protected abstract started(): void;

  /** This connection's last failure as counted (a session's failed response says it). */
  failureKind: ErrorKind | null = null;
  failureMessage = "";

  protected failed(kind: ErrorKind | null, message: string): void {
    this.failureKind = kind;
    this.failureMessage = message;
  }

  get isOpen(): boolean {
    return this.sock !== null;
  }

  nowMs(): number {
    return this.sock === null ? performance.now() : this.sock.nowMs();
  }

  /** The connect that opened this connection, once: for the first response read on it. */
  takeDial(): { connectingMs: number; tlsHandshakingMs: number } | null {
    if (this.dialedConnectMs < 0) return null;
    const dial = { connectingMs: this.dialedConnectMs, tlsHandshakingMs: Math.max(this.dialedTlsMs, 0) };
    this.dialedConnectMs = -1;
    return dial;
  }

  /** What the open socket's TLS handshake negotiated (epoll's OpenSSL client), else null. */
  tlsNegotiated(): SslNegotiated | null {
    const ssl = (this.sock as { ssl?: SslConn | null } | null)?.ssl;
    return ssl === undefined || ssl === null ? null : ssl.negotiated();
  }

  /** Closes the socket now (watchdog timeout or shutdown); a pending connect or read then fails. */
  abort(): void {
    this.#dialer.abort();
    const sock = this.sock;
    if (sock === null) return;
    this.sock = null;
    hangUp(this.shared, sock);
  }

  /** Dials once the connect gate has room; a connect past the timeout is aborted by the watchdog. */
  open(): Promise<boolean> {
    // No async frame and, on epoll, no promise of the dial's: a crowd's connects keep only this one.
    return new Promise(
      this.#opening ??= (resolve) => {
        this.#opened = resolve;
        this.#dialer.dialThen(
          this.#onDialed ??= (sock) => {
            const opened = this.#opened!;
            this.#opened = null;
            if (sock === null) {
              this.failed(this.shared.recorder.lastErrorKind, this.shared.recorder.lastErrorMessage);
            }
            opened(sock !== null);
          },
        );
      },
    );
  }

  adopt(sock: TransportConn): void {
    const inline = inlineOf(sock);
    this.sock = inline ?? new PromiseInline(sock);
    if (inline !== null) this.buf = INLINE_READ;
    else if (this.buf === EMPTY || this.buf === INLINE_READ) this.buf = new Uint8Array(READ_BUFFER_BYTES);
  }

  /** Closes after a per-arrival session or request: our own close, so the next `open` is no reconnect. */
  release(): void {
    this.abort();
    this.#dialer.forgetOpened();
  }

  /**
   * Sends `depth` requests back to back (pipelining when > 1) and resolves with the number of responses.
   * Latency counts from `intendedMs` (negative: now); failures are recorded and the socket closed.
   * `request` replaces the mix's next one. `next`: a closed loop's grant of the next exchange, started
   * from the pump's callback while the socket stays open.
   */
  exchange(
    intendedMs: number,
    depth = 1,
    request: EncodedRequest | null = null,
    next: NextExchange | null = null,
  ): Promise<number> {
    if (this.sock === null) return this.#openThenExchange(intendedMs, depth, request, next);
    const exchanged = new Promise<number>(CATCH);
    const resolve = caught!;
    caught = null;
    this.#settle = resolve;
    this.#next = next;
    let begun: boolean;
    try {
      begun = this.#begin(intendedMs, depth, request, -1);
    } catch (err) {
      this.#settle = this.#next = null;
      return Promise.reject(err);
    }
    if (!begun) {
      this.#settle = this.#next = null;
      resolve(0);
    }
    return exchanged;
  }

  /** `exchange` of `request` alone, ending in `settle` or `failed`; `sentMs`: now, or negative. */
  exchangeInto(
    intendedMs: number,
    sentMs: number,
    request: EncodedRequest,
    settle: (done: number) => void,
    failed: (err: unknown) => void,
  ): void {
    if (this.sock === null) {
      this.exchange(intendedMs, 1, request).then(settle, failed);
      return;
    }
    this.#settle = settle;
    this.#next = null;
    let begun: boolean;
    try {
      begun = this.#begin(intendedMs, 1, request, sentMs);
    } catch (err) {
      this.#settle = null;
      return failed(err);
    }
    if (!begun) {
      this.#settle = null;
      settle(0);
    }
  }

  async #openThenExchange(
    intendedMs: number,
    depth: number,
    request: EncodedRequest | null,
    next: NextExchange | null,
  ): Promise<number> {
    return await this.open() ? await this.exchange(intendedMs, depth, request, next) : 0;
  }

  /** Starts an exchange: arms the read, then writes the picked request; false when none was sent. */
  #begin(intendedMs: number, depth: number, request: EncodedRequest | null, sentMs: number): boolean {
    const shared = this.shared;
    const bytes = this.requests.pick(depth, request);
    if (bytes === null) {
      const refused = this.requests.refused;
      if (refused !== "") {
        shared.recorder.recordError(performance.now(), "bad-value", refused, this.requests.endpointOf(0));
        this.failed("bad-value", refused);
      }
      return false;
    }
    if (sentMs < 0) sentMs = performance.now();
    this.lastEventMs = sentMs;
    this.intendedMs = intendedMs < 0 ? sentMs : intendedMs;
    this.sentMs = sentMs;
    this.depth = depth;
    this.done = this.answered = 0;
    this.active = true;
    this.deadlineMs = sentMs + shared.timeoutMs;
    this.exchangeTimeoutMs = shared.timeoutMs;
    this.timedOut = false;
    this.#writing = bytes;
    this.#writeOffset = 0;
    this.writeError = null;
    // A pipelined batch's bytes count under its first request's endpoint.
    shared.recorder.addBytesWritten(sentMs, bytes.length, this.requests.endpointOf(0));
    shared.recorder.inFlight += depth;
    this.started();
    if (TRACE_CONN) traceConn(this.id, fdOf(this.sock), "written", `${bytes.length} bytes x${depth}`);
    const inline = this.sock!;
    // Armed before the write, so a write that fails at once fails the armed read, as on Deno.Conn.
    inline.armRead(this.buf, this);
    let n: number;
    try {
      n = inline.writeNow(bytes);
    } catch (err) {
      this.#writeFailed(err);
      return true;
    }
    if (n < bytes.length) this.#written(n);
    return true;
  }

  /** Counts the waiting exchange's requests as `unfinished` when the graceful stop ends the run. */
  abstract countUnfinished(nowMs: number): void;

  #end(): number {
    if (TRACE_CONN) traceConn(this.id, fdOf(this.sock), "done", `${this.answered}/${this.depth} answered`);
    this.active = false;
    this.shared.recorder.inFlight -= this.depth;
    this.deadlineMs = Infinity;
    return this.answered;
  }

  /** `InlineReader`: parses the pump's read, then reads on or ends the exchange. */
  onRead(n: number | null): boolean {
    const inline = this.sock!;
    if (!this.consume(n, inline.nowMs())) {
      inline.armRead(this.buf, this);
      return false;
    }
    return this.#inlineEnd();
  }

  onReadError(err: unknown): boolean {
    this.fail(err);
    return this.#inlineEnd();
  }

  #inlineEnd(): boolean {
    const done = this.#end();
    const next = this.#next;
    if (next !== null && this.sock !== null) {
      const granted = next(this.maxDepth, this.lastEventMs);
      if (granted > 0 && this.#begin(-1, granted, null, this.lastEventMs)) return false;
    }
    const settle = this.#settle;
    this.#settle = this.#next = null;
    settle?.(done);
    return true;
  }

  #written(n: number): void {
    this.#writeOffset += n;
    if (this.#writeOffset >= this.#writing.length || this.sock === null) return;
    this.#writeLater(this.sock, this.#writing.subarray(this.#writeOffset));
  }

  #writeLater(sock: TransportConn, bytes: Uint8Array): void {
    this.#onWritten ??= (n: number) => this.#written(n);
    this.#onWriteError ??= (err: unknown) => this.#writeFailed(err);
    sock.write(bytes).then(this.#onWritten, this.#onWriteError);
  }

  #writeFailed(err: unknown): void {
    // Closed by us already: that side counts the exchange, and an abort could cut a new dial.
    if (this.sock === null) return;
    this.writeError = err;
    this.abort();
  }
}
