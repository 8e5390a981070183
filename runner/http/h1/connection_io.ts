/**
 * @module
 * The socket side of an HTTP/1.1 connection of the load generator (connection.ts's `Connection` adds
 * the response side). HOT PATH: `exchange` writes pre-encoded bytes without awaiting the write and reads
 * into one reused buffer per connection, allocating nothing per request beyond the promises of the write
 * and the read. On a transport with the inline contract (epoll, transport/transport.ts) not even those:
 * the pump hands read bytes to `consume` by callback, and a closed loop's next exchange starts from there
 * (`exchange`'s `next`), so one promise covers a whole chain of requests. Timeouts are enforced from
 * outside by the worker's watchdog (`deadlineMs` + `abort`), so no timer is armed per request; the
 * connect is transport/dial.ts's. The state of the exchange in progress lives in fields, not locals, so
 * the inline path can resume it from a callback.
 */
import type { ErrorKind } from "../../../results/mod.ts";
import type { EncodedRequest } from "../request.ts";
import { RequestPicker } from "../request_picker.ts";
import type { ConnectionShared, LoadConnection, NextExchange } from "../load_connection.ts";
import { Dialer, hangUp } from "../transport/dial.ts";
import { fdOf, TRACE_CONN, traceConn } from "../transport/conn_trace.ts";
import { type InlineConn, inlineOf, type InlineReader, type TransportConn } from "../transport/transport.ts";
import type { SslConn, SslNegotiated } from "../tls/openssl_conn.ts";

const READ_BUFFER_BYTES = 32 * 1024;
const EMPTY = new Uint8Array(0);
/**
 * The read buffer of every inline connection of this isolate: the pump reads into it and hands the bytes
 * to `consume` in the same call, which keeps none of them (the parser holds no bytes between reads, kept
 * bytes are copied), so one buffer serves them all and an idle connection holds none. A promise read is
 * consumed a turn later, after other reads, so it keeps a buffer of its own.
 */
const INLINE_READ = new Uint8Array(READ_BUFFER_BYTES);
/**
 * An exchange's promise is made with this one executor, which hands its resolver out here (the
 * constructor calls it at once): no closure per exchange.
 */
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
  protected sock: TransportConn | null = null;
  /** The same socket when its transport has the inline contract (epoll), else null. */
  #inline: InlineConn | null = null;
  readonly #dialer: Dialer;
  /** `open`'s promise's executor and its dial's end, bound once; its resolver while it dials. */
  #opening: ((resolve: (open: boolean) => void) => void) | null = null;
  #onDialed: ((sock: TransportConn | null) => void) | null = null;
  #opened: ((open: boolean) => void) | null = null;
  /** Where reads land: `INLINE_READ` on an inline socket, else the connection's own (made on first use). */
  protected buf: Uint8Array = EMPTY;
  /** The requests of the exchange in progress (pre-encoded bytes, which ones are HEAD). */
  protected readonly requests: RequestPicker;
  // The exchange in progress.
  protected intendedMs = 0;
  protected sentMs = 0;
  protected depth = 0;
  /** Requests of the exchange handled: answered, or failed and counted. */
  protected done = 0;
  /** Requests of the exchange answered by a response (what `exchange` returns). */
  protected answered = 0;
  /** An exchange is in progress: sent (or being sent), its responses not all in. */
  protected active = false;
  /** Bytes being written and how far; the write is not awaited (the response read is). */
  #writing: Uint8Array = EMPTY;
  #writeOffset = 0;
  protected writeError: unknown = null;
  /** Inline path: resolves the exchange (or the chain of them) in progress; `#next` grants the next. */
  #settle: ((done: number) => void) | null = null;
  #next: NextExchange | null = null;
  /**
   * Handlers of an un-awaited write (the promise contract, or a short write's rest), bound on first
   * use so no closure is made per request; an inline connection whose writes the kernel takes whole
   * (every one of a big idle crowd) never makes them.
   */
  #onWritten: ((n: number) => void) | null = null;
  #onWriteError: ((err: unknown) => void) | null = null;

  constructor(readonly id: number, readonly shared: ConnectionShared, readonly maxDepth = 1) {
    this.requests = new RequestPicker(shared.mix, maxDepth, shared.rows ?? null);
    this.#dialer = new Dialer(shared, this);
  }

  /**
   * Takes `n` bytes read into `buf` at `nowMs` (null: end of stream): records every response they end.
   * True when the exchange is over (all responses in, or failed and counted, the socket then closed).
   */
  protected abstract consume(n: number | null, nowMs: number): boolean;

  /** A failed read: counts the exchange's unanswered requests and closes the socket. */
  protected abstract fail(err: unknown): void;

  /** An exchange of `depth` requests starts: the response side gets ready for the first response. */
  protected abstract started(): void;

  /**
   * This connection's last failure, kind and message as counted (a session's failed response says it):
   * two field writes per failure, nothing per request.
   */
  failureKind: ErrorKind | null = null;
  failureMessage = "";

  protected failed(kind: ErrorKind | null, message: string): void {
    this.failureKind = kind;
    this.failureMessage = message;
  }

  get isOpen(): boolean {
    return this.sock !== null;
  }

  /** `performance.now()`, from the inline transport's cheaper clock while it holds the socket. */
  nowMs(): number {
    return this.#inline === null ? performance.now() : this.#inline.nowMs();
  }

  /**
   * What the open socket's TLS handshake negotiated (the epoll transport's OpenSSL client, asked now),
   * else null: plain TCP, closed, or a client that does not tell (the deno transport's).
   */
  /**
   * The connect that opened this connection, once: for the first response read on it (the request that
   * waited for it), null after and on a connection opened for an earlier request.
   */
  takeDial(): { connectingMs: number; tlsHandshakingMs: number } | null {
    if (this.dialedConnectMs < 0) return null;
    const dial = { connectingMs: this.dialedConnectMs, tlsHandshakingMs: Math.max(this.dialedTlsMs, 0) };
    this.dialedConnectMs = -1;
    return dial;
  }

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
    this.#inline = null;
    hangUp(this.shared, sock);
  }

  /**
   * Dials once the connect gate has room; records the connect time or the error. A connect past the
   * timeout is aborted by the watchdog (the wait for the gate is not part of it).
   */
  open(): Promise<boolean> {
    // No async frame and, on epoll, no promise of the dial's: a crowd's connects in flight keep only this
    // one.
    return new Promise(
      this.#opening ??= (resolve) => {
        this.#opened = resolve;
        this.#dialer.dialThen(
          this.#onDialed ??= (sock) => {
            const opened = this.#opened!;
            this.#opened = null;
            // The dial's failure was just counted (transport/dial.ts): this connection's last one.
            if (sock === null) {
              this.failed(this.shared.recorder.lastErrorKind, this.shared.recorder.lastErrorMessage);
            }
            opened(sock !== null);
          },
        );
      },
    );
  }

  /** The dialer's socket, taken in the turn it connected (transport/dial.ts `DialWatch`). */
  adopt(sock: TransportConn): void {
    this.sock = sock;
    const inline = inlineOf(sock);
    this.#inline = inline;
    if (inline !== null) this.buf = INLINE_READ;
    else if (this.buf === EMPTY || this.buf === INLINE_READ) this.buf = new Uint8Array(READ_BUFFER_BYTES);
  }

  /**
   * Closes after a per-arrival session or request (Artillery's connection per virtual user): a close
   * of our own, so the next `open` counts as a new connection, not as a reconnect.
   */
  release(): void {
    this.abort();
    this.#dialer.forgetOpened();
  }

  /**
   * Sends `depth` requests back to back (pipelining when > 1) and reads their responses. Latency is
   * measured from `intendedMs` (coordinated-omission corrected; pass a negative value for "now") and
   * from the actual send. Returns the number of responses; failures are recorded, the socket closed.
   * `request` (a flow step, depth 1) is sent instead of the mix's next one; null keeps the mix.
   *
   * `next` (a closed loop's `take`): on an inline transport, each time an exchange ends with the
   * socket still open, the next one (`next(maxDepth, nowMs)` requests, sent "now") starts from the
   * pump's callback, with no promise per request; the promise then resolves with the count of the last
   * exchange, once `next` grants none or the socket is closed. Elsewhere `next` is ignored.
   */
  exchange(
    intendedMs: number,
    depth = 1,
    request: EncodedRequest | null = null,
    next: NextExchange | null = null,
  ): Promise<number> {
    if (this.sock === null) return this.#openThenExchange(intendedMs, depth, request, next);
    if (this.#inline === null) return this.#readLoop(intendedMs, depth, request);
    // No async frame: the one promise the pump settles, for the whole chain of exchanges.
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

  /**
   * One request (`exchange` of `request` alone) whose end calls `settle` with its response count instead
   * of resolving a promise: on an inline transport from the pump's callback (or at once, when nothing was
   * sent), with nothing made per request; elsewhere from `exchange`'s promise (`failed` if it rejects). A
   * session script's request settles a promise of its own, which this spares the connection's.
   * `sentMs`: now, when the caller has just read the clock (`nowMs()`), else negative.
   */
  exchangeInto(
    intendedMs: number,
    sentMs: number,
    request: EncodedRequest,
    settle: (done: number) => void,
    failed: (err: unknown) => void,
  ): void {
    if (this.sock === null || this.#inline === null) {
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

  /** The promise contract's exchange: one awaited read after another until the exchange is over. */
  async #readLoop(intendedMs: number, depth: number, request: EncodedRequest | null): Promise<number> {
    const sock = this.sock!;
    if (!this.#begin(intendedMs, depth, request, -1)) return 0;
    const buf = this.buf;
    while (true) {
      let n: number | null;
      try {
        n = await sock.read(buf);
      } catch (err) {
        this.fail(err);
        break;
      }
      if (this.consume(n, performance.now())) break;
    }
    return this.#end();
  }

  /**
   * Starts an exchange: picks and writes the request, then (inline) arms the read. `sentMs` is now
   * when the caller has just read the clock (a chained exchange: the previous response's end, a
   * microsecond ago), else negative. False when there was nothing to send (the mix's data rows ran
   * out, or a filled value was refused and counted): no exchange started.
   */
  #begin(intendedMs: number, depth: number, request: EncodedRequest | null, sentMs: number): boolean {
    const shared = this.shared;
    const bytes = this.requests.pick(depth, request);
    if (bytes === null) {
      // A refused value (a line break in a header or the path): counted as the request's error, unsent.
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
    const inline = this.#inline;
    if (inline === null) {
      this.#writeLater(this.sock!, bytes);
      return true;
    }
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

  /**
   * The run is over with this exchange still waiting (the graceful stop ended): counts its unanswered
   * requests as `unfinished` (cut by the experiment's own stop: shown, never a failure of the target), so
   * a request sent is never lost from the results.
   */
  abstract countUnfinished(nowMs: number): void;

  /** Ends the exchange in progress; its response count (a failed request, counted, is no response). */
  #end(): number {
    if (TRACE_CONN) traceConn(this.id, fdOf(this.sock), "done", `${this.answered}/${this.depth} answered`);
    this.active = false;
    this.shared.recorder.inFlight -= this.depth;
    this.deadlineMs = Infinity;
    return this.answered;
  }

  /**
   * The inline reader's side (transport/transport.ts `InlineReader`), the connection itself so no reader
   * object is made per connection: the pump's read, parsed; then read on, or end the exchange.
   */
  onRead(n: number | null): boolean {
    const inline = this.#inline!;
    if (!this.consume(n, inline.nowMs())) {
      inline.armRead(this.buf, this);
      return false;
    }
    return this.#inlineEnd();
  }

  /** The inline read failed (also when the socket closed under it): counted, the exchange ends. */
  onReadError(err: unknown): boolean {
    this.fail(err);
    return this.#inlineEnd();
  }

  /** Inline: the exchange ended; starts the chain's next one, or settles. True when it settled. */
  #inlineEnd(): boolean {
    const done = this.#end();
    const next = this.#next;
    if (next !== null && this.#inline !== null) {
      const granted = next(this.maxDepth, this.lastEventMs);
      if (granted > 0 && this.#begin(-1, granted, null, this.lastEventMs)) return false;
    }
    const settle = this.#settle;
    this.#settle = this.#next = null;
    settle?.(done);
    return true;
  }

  /** A short write: send the rest (the response cannot start before the request ends). */
  #written(n: number): void {
    this.#writeOffset += n;
    if (this.#writeOffset >= this.#writing.length || this.sock === null) return;
    this.#writeLater(this.sock, this.#writing.subarray(this.#writeOffset));
  }

  /** Writes `bytes` without awaiting: the rest is sent from the write's settlement, a failure counted. */
  #writeLater(sock: TransportConn, bytes: Uint8Array): void {
    this.#onWritten ??= (n: number) => this.#written(n);
    this.#onWriteError ??= (err: unknown) => this.#writeFailed(err);
    sock.write(bytes).then(this.#onWritten, this.#onWriteError);
  }

  #writeFailed(err: unknown): void {
    // Closed by us already (a timeout, the stop, a failed read): that side counts the exchange, and this
    // connection may be dialing again by now, which an abort here would cut.
    if (this.sock === null) return;
    this.writeError = err;
    this.abort();
  }
}
