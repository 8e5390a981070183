/**
 * @module
 * One keep-alive HTTP/1.1 load connection. HOT PATH: writes unawaited, reads into one reused buffer, parses
 * without allocating, counts failures without throwing; the watchdog times it out (no timer per request).
 */
import { fillLane } from "../template.ts";
import type { ErrorKind } from "../../../results/mod.ts";
import type { EncodedRequest } from "../request.ts";
import { RequestPicker } from "../request_picker.ts";
import type { ConnectionShared, NextExchange, StepConnection, StepRequest } from "../load_connection.ts";
import { type DialEnd, Dialer, hangUp } from "../transport/dial.ts";
import { fdOf, TRACE_CONN, traceConn } from "../transport/conn_trace.ts";
import { type InlineConn, inlineOf, type InlineReader, type TransportConn } from "../transport/transport.ts";
import { PromiseInline } from "../transport/promise_inline.ts";
import type { SslConn, SslNegotiated } from "../tls/openssl_conn.ts";
import {
  classifyError,
  CLOSED_EARLY,
  CLOSED_UNANSWERED,
  errorMessage,
  responseTimeoutMessage,
  UNSOLICITED,
} from "../exchange_errors.ts";
import { MAX_EMPTY_LINES } from "../../../http1/head_lines.ts";
import { NEED_MORE, PARSE_ERROR } from "../../../http1/message_framer.ts";
import { ResponseParser } from "./response_parser.ts";
import { DEFAULT_KEPT_BYTES, KeptBytes, keptTooLargeMessage } from "../kept_bytes.ts";
import { KeptResponse } from "../kept_response.ts";
import { elapsedUs } from "../../../results/histogram.ts";

const READ_BUFFER_BYTES = 32 * 1024;
const EMPTY = new Uint8Array(0);
/** The read buffer of every epoll and io_uring connection (Deno's sockets get their own). */
const INLINE_READ = new Uint8Array(READ_BUFFER_BYTES);
/** The one executor of every exchange's promise: hands its settlers out here, so no closure per exchange. */
let caught: ((done: number) => void) | null = null;
let caughtFailed: ((err: unknown) => void) | null = null;
const CATCH = (resolve: (done: number) => void, reject: (err: unknown) => void) => {
  caught = resolve;
  caughtFailed = reject;
};

const NO_VALUES: Uint8Array[] = [];

export class Connection implements StepConnection, InlineReader, DialEnd {
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
  /** A kept exchange's phases (ms): asked on a closed socket (-1: open), written, first read. */
  askedMs = -1;
  writeStartMs = 0;
  writtenMs = 0;
  firstByteMs = 0;
  #sock: InlineConn | null = null;
  readonly #dialer: Dialer;
  #opening: ((resolve: (open: boolean) => void) => void) | null = null;
  #opened: ((open: boolean) => void) | null = null;
  /** `cut` while dialling: the exchange waiting for the dial is not sent. */
  #cutDial = false;
  #buf: Uint8Array = EMPTY;
  readonly #requests: RequestPicker;
  #intendedMs = 0;
  #sentMs = 0;
  #depth = 0;
  /** Requests of the exchange handled (answered, or failed and counted) and answered. */
  #done = 0;
  #answered = 0;
  #active = false;
  #writing: Uint8Array = EMPTY;
  #writeOffset = 0;
  #writeError: unknown = null;
  #settle: ((done: number) => void) | null = null;
  #next: NextExchange | null = null;
  /** Handlers of an un-awaited write, bound on first use (never, when the kernel takes writes whole). */
  #onWritten: ((n: number) => void) | null = null;
  #onWriteError: ((err: unknown) => void) | null = null;

  readonly #parser: ResponseParser;
  /** What of the responses to keep for the session (`keep`): 0 nothing, 1 the head, 2 head and body. */
  #keep = 0;
  /** The most bytes kept of the step's response; past it the response fails as `body-too-large`. */
  #keptLimit = DEFAULT_KEPT_BYTES;
  readonly #kept = new KeptBytes();
  /** Bytes read in the exchange in progress: a timeout says how much of the response had come. */
  #arrivedBytes = 0;
  /** `$worker()`: this connection, its own lane. */
  readonly #lane: Uint8Array;

  constructor(readonly id: number, readonly shared: ConnectionShared, readonly maxDepth = 1) {
    this.#requests = new RequestPicker(shared.mix, maxDepth, shared.rows ?? null);
    this.#lane = new TextEncoder().encode(`g${id}c${id}`);
    this.#dialer = new Dialer(shared, this);
    this.#parser = new ResponseParser(shared.maxHeaderBytes);
  }

  /** This connection's last failure as counted (a session's failed response says it). */
  failureKind: ErrorKind | null = null;
  failureMessage = "";

  #failed(kind: ErrorKind | null, message: string): void {
    this.failureKind = kind;
    this.failureMessage = message;
  }

  get isOpen(): boolean {
    return this.#sock !== null;
  }

  nowMs(): number {
    return this.#sock === null ? performance.now() : this.#sock.nowMs();
  }

  /** The last response's head has a Set-Cookie field (a jar reads the head only then). */
  get setCookie(): boolean {
    return this.#parser.setCookie;
  }

  /** The connect that opened this connection, once: for the first response read on it. */
  takeDial(): { connectingMs: number; tlsHandshakingMs: number } | null {
    if (this.dialedConnectMs < 0) return null;
    const dial = { connectingMs: this.dialedConnectMs, tlsHandshakingMs: Math.max(this.dialedTlsMs, 0) };
    this.dialedConnectMs = -1;
    return dial;
  }

  tlsNegotiated(): SslNegotiated | null {
    const ssl = (this.#sock as { ssl?: SslConn | null } | null)?.ssl;
    return ssl === undefined || ssl === null ? null : ssl.negotiated();
  }

  /** Closes the socket now (watchdog timeout or shutdown); a pending connect or read then fails. */
  abort(): void {
    this.#dialer.abort();
    const sock = this.#sock;
    if (sock === null) return;
    this.#sock = null;
    hangUp(this.shared, sock);
  }

  /** Dials once the connect gate has room (the watchdog times it out); a failure counts under `endpoint`. */
  open(endpoint = -1): Promise<boolean> {
    this.#cutDial = false;
    this.#dialer.endpoint = endpoint;
    // No async frame and, on epoll, no promise of the dial's: a crowd's connects keep only this one.
    return new Promise(
      this.#opening ??= (resolve) => {
        this.#opened = resolve;
        this.#dialer.dialThen(this);
      },
    );
  }

  /** The dial's end (transport/dial.ts `DialEnd`): a failure is kept as this connection's last. */
  dialEnded(sock: TransportConn | null): void {
    const opened = this.#opened!;
    this.#opened = null;
    if (sock === null) {
      this.#failed(this.shared.recorder.lastErrorKind, this.shared.recorder.lastErrorMessage);
    }
    opened(sock !== null);
  }

  adopt(sock: TransportConn): void {
    const inline = inlineOf(sock);
    this.#sock = inline ?? new PromiseInline(sock);
    if (inline !== null) this.#buf = INLINE_READ;
    else if (this.#buf === EMPTY || this.#buf === INLINE_READ) this.#buf = new Uint8Array(READ_BUFFER_BYTES);
  }

  /** Ends the exchange in flight uncounted, the socket closed; one still dialling is never sent. */
  cut(): void {
    if (this.#opened !== null) this.#cutDial = true;
    else if (this.#active) {
      this.#done = this.#depth;
      this.abort();
    }
  }

  /** Closes after a per-arrival session or request: our own close, so the next `open` is no reconnect. */
  release(): void {
    this.abort();
    this.#dialer.forgetOpened();
  }

  /**
   * Sends `depth` requests back to back (pipelining when > 1); resolves with the number of responses. Latency
   * counts from `intendedMs` (negative: now); `next`, a closed loop's grant, starts the next exchange.
   */
  exchange(
    intendedMs: number,
    depth = 1,
    request: EncodedRequest | null = null,
    next: NextExchange | null = null,
  ): Promise<number> {
    if (this.#sock === null) {
      this.askedMs = performance.now();
      return this.#openThenExchange(intendedMs, depth, request, next);
    }
    const exchanged = new Promise<number>(CATCH);
    const settle = caught!, failed = caughtFailed!;
    caught = caughtFailed = null;
    this.exchangeInto(intendedMs, -1, request, settle, failed, depth, next);
    return exchanged;
  }

  /** `exchange` ending in `settle` or `failed` instead of a promise; `sentMs`: now, or negative. */
  exchangeInto(
    intendedMs: number,
    sentMs: number,
    request: EncodedRequest | null,
    settle: (done: number) => void,
    failed: (err: unknown) => void,
    depth = 1,
    next: NextExchange | null = null,
  ): void {
    if (this.#sock === null) {
      this.#openThenExchange(intendedMs, depth, request, next).then(settle, failed);
      return;
    }
    if (this.#cutDial) {
      this.release();
      return settle(0);
    }
    this.#settle = settle;
    this.#next = next;
    let begun: boolean;
    try {
      begun = this.#begin(intendedMs, depth, request, sentMs);
    } catch (err) {
      this.#settle = this.#next = null;
      return failed(err);
    }
    if (!begun) {
      this.#settle = this.#next = null;
      settle(0);
    }
  }

  async #openThenExchange(
    intendedMs: number,
    depth: number,
    request: EncodedRequest | null,
    next: NextExchange | null,
  ): Promise<number> {
    return await this.open(request?.endpoint) ? await this.exchange(intendedMs, depth, request, next) : 0;
  }

  #begin(intendedMs: number, depth: number, request: EncodedRequest | null, sentMs: number): boolean {
    const shared = this.shared;
    fillLane.id = this.#lane;
    fillLane.uuidDrawn = false;
    const bytes = this.#requests.pick(depth, request);
    if (bytes === null) {
      const refused = this.#requests.refused;
      if (refused !== "") {
        shared.recorder.recordError(performance.now(), "bad-value", refused, this.#requests.endpointOf(0));
        this.#failed("bad-value", refused);
      }
      return false;
    }
    if (sentMs < 0) sentMs = performance.now();
    this.lastEventMs = sentMs;
    this.#intendedMs = intendedMs < 0 ? sentMs : intendedMs;
    this.#sentMs = sentMs;
    this.#depth = depth;
    this.#done = this.#answered = 0;
    this.#active = true;
    this.deadlineMs = sentMs + shared.timeoutMs;
    this.exchangeTimeoutMs = shared.timeoutMs;
    this.timedOut = false;
    this.#writing = bytes;
    this.#writeOffset = 0;
    this.#writeError = null;
    shared.recorder.addBytesWritten(sentMs, bytes.length, this.#requests.endpointOf(0));
    shared.recorder.inFlight += depth;
    this.#parser.start(this.#requests.isHead(0));
    if (this.#keep !== 0) this.#kept.reset(this.#keptLimit);
    this.#arrivedBytes = 0;
    if (TRACE_CONN) traceConn(this.id, fdOf(this.#sock), "written", `${bytes.length} bytes x${depth}`);
    const inline = this.#sock!;
    // Armed before the write, so a write that fails at once fails the armed read, as on Deno.Conn.
    inline.armRead(this.#buf, this);
    let n: number;
    if (this.#keep !== 0) this.writeStartMs = sentMs;
    try {
      n = inline.writeNow(bytes);
    } catch (err) {
      this.#writeFailed(err);
      return true;
    }
    if (n < bytes.length) this.#written(n);
    else if (this.#keep !== 0) this.writtenMs = inline.nowMs();
    return true;
  }

  #end(): number {
    if (TRACE_CONN) traceConn(this.id, fdOf(this.#sock), "done", `${this.#answered}/${this.#depth} answered`);
    this.#active = false;
    this.shared.recorder.inFlight -= this.#depth;
    this.deadlineMs = Infinity;
    return this.#answered;
  }

  onRead(n: number | null): boolean {
    const inline = this.#sock!;
    if (!this.#consume(n, inline.nowMs())) {
      inline.armRead(this.#buf, this);
      return false;
    }
    return this.#inlineEnd();
  }

  onReadError(err: unknown): boolean {
    this.#fail(err);
    return this.#inlineEnd();
  }

  #inlineEnd(): boolean {
    const done = this.#end();
    const next = this.#next;
    if (next !== null && this.#sock !== null) {
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
    if (this.#writeOffset >= this.#writing.length) this.writtenMs = this.nowMs();
    if (this.#writeOffset >= this.#writing.length || this.#sock === null) return;
    this.#onWritten ??= (n: number) => this.#written(n);
    this.#onWriteError ??= (err: unknown) => this.#writeFailed(err);
    this.#sock.write(this.#writing.subarray(this.#writeOffset)).then(this.#onWritten, this.#onWriteError);
  }

  #writeFailed(err: unknown): void {
    // Closed by us already: that side counts the exchange, and an abort could cut a new dial.
    if (this.#sock === null) return;
    this.#writeError = err;
    this.abort();
  }

  /** For a flow step that keeps its response: values, a Cookie line, what to keep (0-2) and its cap. */
  prepareStep(
    values: ReadonlyArray<Uint8Array>,
    extraHead: Uint8Array | null,
    keep: number,
    keptLimit = DEFAULT_KEPT_BYTES,
  ): void {
    this.#requests.values = values;
    this.#requests.extraHead = extraHead;
    this.#keep = keep;
    this.#keptLimit = keptLimit;
  }

  /** A flow step: its values and Cookie line taken for the next exchange, which sends it. */
  sendStep(
    sendMs: number,
    step: StepRequest,
    values: ReadonlyArray<Uint8Array>,
    cookieLine: Uint8Array | null,
  ): Promise<number> {
    this.prepareStep(values, cookieLine, step.keep, step.maxKeptBytes);
    return this.exchange(sendMs, 1, step.request);
  }

  /** The last response's kept bytes, read (see `prepareStep`); valid until the next exchange. */
  keptResponse(): KeptResponse {
    return new KeptResponse(this.#kept.view());
  }

  /** The last response's kept bytes as received; valid until the next exchange. */
  keptBytes(): KeptBytes {
    return this.#kept;
  }

  endSession(): void {
    this.prepareStep(NO_VALUES, null, 0);
  }

  /** Counts unanswered requests as `unfinished`; call before `stopping` is set and the socket closed. */
  countUnfinished(nowMs: number): void {
    if (!this.#active) return;
    if (!this.shared.stopping) this.shared.recorder.unfinished(nowMs, this.#depth - this.#done);
    this.#done = this.#depth;
  }

  #consume(n: number | null, nowMs: number): boolean {
    this.lastEventMs = nowMs;
    const depth = this.#depth;
    const parser = this.#parser;
    if (n === null) {
      // The response in progress was cut short (or is complete, framed by the close); later ones never began.
      if (parser.completesAtEof()) {
        this.#complete(nowMs);
        this.#done++;
      } else if (parser.started && this.#done < depth) {
        this.#countFailed(nowMs, "closed-early", CLOSED_EARLY, 1);
        this.#done++;
      }
      this.#countUnanswered(nowMs);
      this.abort();
      return true;
    }
    this.shared.recorder.addBytesRead(nowMs, n, this.#requests.endpointOf(this.#done));
    if (this.#arrivedBytes === 0) {
      this.firstByteMs = nowMs;
      if (TRACE_CONN) traceConn(this.id, fdOf(this.#sock), "first-byte", `${n} bytes`);
    }
    this.#arrivedBytes += n;
    const buf = this.#buf;
    let offset = 0;
    while (offset < n) {
      const end = parser.feed(buf, offset, n);
      if (this.#keep !== 0 && !this.#kept.append(buf, offset, end < 0 ? n : end, this.#keep === 1)) {
        // Past what the step keeps: no capture could run on a cut body; the rest is not worth reading.
        this.#countFailed(nowMs, "body-too-large", keptTooLargeMessage(this.#keptLimit), depth - this.#done);
        return this.#abortCounted();
      }
      if (end === NEED_MORE) return false;
      if (end === PARSE_ERROR) {
        this.#countFailed(nowMs, "parse", parser.error, depth - this.#done);
        return this.#abortCounted();
      }
      if (end < n && this.#done + 1 === depth && parser.keepAlive && !emptyLines(buf, end, n)) {
        // Bytes nobody asked for: the stream is out of step, so count it once and start afresh.
        this.#countFailed(nowMs, "parse", UNSOLICITED, 1);
        return this.#abortCounted();
      }
      this.#complete(nowMs);
      this.#done++;
      if (!parser.keepAlive) {
        this.#countUnanswered(nowMs);
        return this.#abortCounted();
      }
      if (this.#done === depth) return true;
      parser.start(this.#requests.isHead(this.#done));
      offset = end;
    }
    return false;
  }

  /** The exchange's requests after `done` are lost with the connection before any byte of their responses. */
  #countUnanswered(nowMs: number): void {
    if (this.#done < this.#depth) {
      this.#countFailed(nowMs, "closed-early", CLOSED_UNANSWERED, this.#depth - this.#done);
    }
  }

  #abortCounted(): boolean {
    this.abort();
    this.#done = this.#depth;
    return true;
  }

  #complete(nowMs: number): void {
    const status = this.#parser.status;
    this.shared.recorder.recordResponse(
      nowMs,
      status,
      elapsedUs(this.#intendedMs, nowMs),
      elapsedUs(this.#sentMs, nowMs),
      this.#requests.endpointOf(this.#done),
    );
    this.shared.log?.write(status, this.#intendedMs, this.#sentMs, nowMs, this.id);
    this.#answered++;
  }

  #countFailed(nowMs: number, kind: ErrorKind, message: string, count: number): void {
    this.#failed(kind, message);
    if (this.shared.stopping) return;
    const recorder = this.shared.recorder, requests = this.#requests, first = this.#done;
    for (let k = 0; k < count; k++) {
      recorder.recordError(nowMs, kind, message, requests.endpointOf(first + k));
    }
  }

  #fail(err: unknown): void {
    const count = this.#depth - this.#done;
    const timedOut = this.timedOut;
    const writeError = this.#writeError;
    this.abort();
    const nowMs = performance.now();
    if (TRACE_CONN) traceConn(this.id, -1, "failed", timedOut ? "timeout" : errorMessage(writeError ?? err));
    if (timedOut) {
      const message = responseTimeoutMessage(this.exchangeTimeoutMs, err, this.#arrivedBytes);
      this.#countFailed(nowMs, "timeout", message, count);
    } else if (writeError !== null) {
      this.#countFailed(nowMs, classifyError(writeError, "write"), errorMessage(writeError), count);
    } else this.#countFailed(nowMs, classifyError(err, "read"), errorMessage(err), count);
  }
}

/** Whether buf[from, to) is only empty lines, which a server may send between responses: not unsolicited. */
function emptyLines(buf: Uint8Array, from: number, to: number): boolean {
  if (to - from > 2 * MAX_EMPTY_LINES) return false;
  for (let k = from; k < to; k++) if (buf[k] !== 10 && buf[k] !== 13) return false;
  return true;
}
