/**
 * @module
 * One keep-alive HTTP/1.1 connection of the load generator. HOT PATH: `exchange` writes pre-encoded
 * bytes, reads into one reused buffer per connection and lets the byte-scanning parser find response
 * ends; it records into the worker's recorder and allocates nothing per request beyond the promises of
 * the write and the read. On a transport with the inline contract (epoll, transport.ts) not even
 * those: the pump hands read bytes to `#consume` by callback, and a closed loop's next exchange starts
 * from there (`exchange`'s `next`), so one promise covers a whole chain of requests. Failures are
 * counted by kind, never thrown. Timeouts are enforced from outside by the worker's watchdog
 * (`deadlineMs` + `abort`), so no timer is armed per request. The transport (plain TCP, TLS or epoll)
 * is chosen once per run, like wrk's function table. A flow step that captures, checks or keeps
 * cookies asks (`prepareStep`) for its response's bytes to be kept (the head, or head and body) in a
 * buffer of the connection's own; every other exchange keeps none.
 */
import type { IntervalRecorder } from "../stats/recorder.ts";
import type { ErrorKind } from "../../results/mod.ts";
import type { EncodedRequest, RequestMix } from "./request.ts";
import { RequestPicker, type RowSource } from "./request_picker.ts";
import {
  classifyError,
  CLOSED_EARLY,
  connectTimeoutMessage,
  errorMessage,
  responseTimeoutMessage,
  UNSOLICITED,
} from "./exchange_errors.ts";
import { tlsFailureMessage } from "./tls_options.ts";
import { MAX_EMPTY_LINES, NEED_MORE, PARSE_ERROR } from "../../http1/message_framer.ts";
import { ResponseParser } from "./response_parser.ts";
import type { ConnectGate } from "./connect_gate.ts";
import { TRACE_CONN, traceConn } from "./conn_trace.ts";
import {
  type InlineConn,
  inlineOf,
  type InlineReader,
  type Transport,
  type TransportConn,
} from "./transport.ts";

const READ_BUFFER_BYTES = 32 * 1024;

/** Receives one line per completed response; see request_log.ts. */
export interface ResponseSink {
  write(status: number, startMs: number, endMs: number, connectionId: number): void;
}

/** What every connection of a worker shares. */
export interface ConnectionShared {
  readonly hostname: string;
  readonly port: number;
  readonly transport: Transport;
  readonly recorder: IntervalRecorder;
  readonly mix: RequestMix;
  /** Data rows for the mix's templated requests (one each), or null (no data source, or flows). */
  readonly rows?: RowSource | null;
  readonly timeoutMs: number;
  /** Cap of a response head; a bigger one is a `parse` error and the connection closes. */
  readonly maxHeaderBytes: number;
  /** Bounds connects in flight at once (every `open` passes it). */
  readonly connectGate: ConnectGate;
  log: ResponseSink | null;
  /** True once the run is over: failures caused by our own shutdown are not counted. */
  stopping: boolean;
}

/**
 * Grants the next exchange of a closed loop: requests to send (up to `depth`), 0 to stop; `nowMs` is
 * when the previous one ended. Once it returns 0 it keeps returning 0 (the closed loop calls it again).
 */
export type NextExchange = (depth: number, nowMs: number) => number;

/**
 * What the executors, the watchdog and the graceful stop need of a connection: an HTTP/1.1 `Connection`,
 * or one stream of an HTTP/2 connection (h2_connection.ts `H2Slot`).
 */
export interface LoadConnection {
  readonly id: number;
  readonly maxDepth: number;
  deadlineMs: number;
  timedOut: boolean;
  lastEventMs: number;
  readonly isOpen: boolean;
  open(): Promise<boolean>;
  exchange(
    intendedMs: number,
    depth?: number,
    request?: EncodedRequest | null,
    next?: NextExchange | null,
  ): Promise<number>;
  abort(): void;
  release(): void;
  waitedMs(nowMs: number): number;
  countUnfinished(nowMs: number, message: string): void;
}

export class Connection implements LoadConnection {
  /** Watchdog deadline (performance.now() ms) of the exchange in progress; Infinity when idle. */
  deadlineMs = Infinity;
  /** Set by the watchdog before it aborts the socket, so the failed read is counted as a timeout. */
  timedOut = false;
  /** `performance.now()` when the last exchange ended: closed loops reuse it instead of asking again. */
  lastEventMs = 0;
  #sock: TransportConn | null = null;
  /** The same socket when its transport has the inline contract (epoll), else null. */
  #inline: InlineConn | null = null;
  /** Aborts the connect in progress (watchdog timeout or shutdown); null when not connecting. */
  #connecting: AbortController | null = null;
  readonly #buf = new Uint8Array(READ_BUFFER_BYTES);
  readonly #parser: ResponseParser;
  /** The requests of the exchange in progress (pre-encoded bytes, which ones are HEAD). */
  readonly #requests: RequestPicker;
  #everOpened = false;
  /** What of the responses to keep for the session (`keep`): 0 nothing, 1 the head, 2 head and body. */
  #keep = 0;
  #kept = new Uint8Array(0);
  #keptBytes = 0;
  /** Where the kept head's end is looked for next (keep 1), -1 once found. */
  #keptScan = 0;
  /** Where the head being kept starts (past interim 1xx heads). */
  #keptHead = 0;
  /** Bytes read in the exchange in progress, for the trace's `first-byte` (only with LOADLAB_TRACE). */
  #traceBytes = 0;
  // The exchange in progress: fields, not locals, so the inline path can resume it from a callback.
  #intendedMs = 0;
  #sentMs = 0;
  #depth = 0;
  #done = 0;
  /** An exchange is in progress: sent (or being sent), its responses not all in. */
  #active = false;
  /** Bytes being written and how far; the write is not awaited (the response read is). */
  #writing: Uint8Array = EMPTY;
  #writeOffset = 0;
  #writeError: unknown = null;
  /** Inline path: resolves the exchange (or the chain of them) in progress; `#next` grants the next. */
  #settle: ((done: number) => void) | null = null;
  #next: NextExchange | null = null;
  // Bound once: handlers of the un-awaited write and of inline reads, so no closure per request.
  readonly #onWritten = (n: number) => this.#written(n);
  readonly #onWriteError = (err: unknown) => {
    this.#writeError = err;
    this.abort();
  };
  readonly #reader: InlineReader = {
    onRead: (n) => this.#inlineRead(n),
    onReadError: (err) => {
      this.#fail(err);
      return this.#inlineEnd();
    },
  };

  constructor(readonly id: number, readonly shared: ConnectionShared, readonly maxDepth = 1) {
    this.#requests = new RequestPicker(shared.mix, maxDepth, shared.rows ?? null);
    this.#parser = new ResponseParser(shared.maxHeaderBytes);
  }

  get isOpen(): boolean {
    return this.#sock !== null;
  }

  /**
   * For a flow step that captures, checks or keeps cookies: the values of its placeholders, a Cookie
   * line, and what of its response to keep (0 nothing: the usual path; 1 the head; 2 head and body).
   */
  prepareStep(values: ReadonlyArray<Uint8Array>, extraHead: Uint8Array | null, keep: number): void {
    this.#requests.values = values;
    this.#requests.extraHead = extraHead;
    this.#keep = keep;
  }

  /** The raw bytes kept of the last response (see `prepareStep`); valid until the next exchange. */
  keptResponse(): Uint8Array {
    return this.#kept.subarray(0, this.#keptBytes);
  }

  /** Appends the response's bytes `buf[from, to)`; with keep 1 only up to the end of its head. */
  #keepBytes(buf: Uint8Array, from: number, to: number): void {
    if (this.#keep === 1 && this.#keptScan < 0) return;
    const need = this.#keptBytes + to - from;
    if (this.#kept.length < need) {
      const grown = new Uint8Array(Math.max(need, 2 * this.#kept.length, 4096));
      grown.set(this.#kept.subarray(0, this.#keptBytes));
      this.#kept = grown;
    }
    this.#kept.set(buf.subarray(from, to), this.#keptBytes);
    this.#keptBytes = need;
    if (this.#keep !== 1) return;
    const kept = this.#kept;
    for (let k = Math.max(this.#keptHead, this.#keptScan - 3); k + 3 < need; k++) {
      if (kept[k] === 13 && kept[k + 1] === 10 && kept[k + 2] === 13 && kept[k + 3] === 10) {
        // An interim 1xx head ("HTTP/1.1 1.."): the final head follows it; keep on to its end.
        if (kept[this.#keptHead + 9] === 49) {
          this.#keptHead = k + 4;
          continue;
        }
        this.#keptScan = -1;
        return;
      }
    }
    this.#keptScan = need;
  }

  /** Closes the socket now (watchdog timeout or shutdown); a pending connect or read then fails. */
  abort(): void {
    this.#connecting?.abort();
    const sock = this.#sock;
    if (sock === null) return;
    this.#sock = null;
    this.#inline = null;
    this.shared.recorder.connections--;
    try {
      sock.close();
    } catch { /* already closed */ }
  }

  /**
   * Dials once the connect gate has room; records the connect time or the error. A connect past the
   * timeout is aborted by the watchdog (the wait for the gate is not part of it).
   */
  async open(): Promise<boolean> {
    const gate = this.shared.connectGate;
    const wait = gate.acquire();
    if (wait !== undefined) await wait;
    try {
      return this.shared.stopping ? false : await this.#dial();
    } finally {
      gate.release();
    }
  }

  async #dial(): Promise<boolean> {
    const { recorder } = this.shared;
    const startMs = performance.now();
    this.deadlineMs = startMs + this.shared.timeoutMs;
    this.timedOut = false;
    const connecting = new AbortController();
    this.#connecting = connecting;
    if (TRACE_CONN) traceConn(this.id, -1, "connect", `port=${this.shared.port}`);
    try {
      this.#sock = await this.shared.transport(this.shared.hostname, this.shared.port, connecting.signal);
      this.#inline = inlineOf(this.#sock);
    } catch (err) {
      this.lastEventMs = performance.now();
      const message = this.timedOut ? connectTimeoutMessage(this.shared.timeoutMs, err) : errorMessage(err);
      if (TRACE_CONN) traceConn(this.id, -1, "connect-failed", message);
      if (!this.shared.stopping) {
        const kind = classifyError(err, "connect");
        recorder.recordError(this.lastEventMs, kind, kind === "tls" ? tlsFailureMessage(message) : message);
      }
      return false;
    } finally {
      this.#connecting = null;
      this.deadlineMs = Infinity;
    }
    const nowMs = performance.now();
    this.lastEventMs = nowMs;
    if (TRACE_CONN) {
      traceConn(this.id, fdOf(this.#sock), "connected", `in ${(nowMs - startMs).toFixed(2)} ms`);
    }
    recorder.connections++;
    // A TLS transport times its handshake; the connect time is the TCP part (the dial without it).
    const tlsMs = (this.#sock as { tlsMs?: number }).tlsMs ?? -1;
    recorder.connected(nowMs, (nowMs - startMs - Math.max(tlsMs, 0)) * 1000, tlsMs * 1000);
    if (this.#everOpened) recorder.reconnected(nowMs);
    this.#everOpened = true;
    return true;
  }

  /**
   * Closes after a per-arrival session or request (Artillery's connection per virtual user): a close
   * of our own, so the next `open` counts as a new connection, not as a reconnect.
   */
  release(): void {
    this.abort();
    this.#everOpened = false;
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
  async exchange(
    intendedMs: number,
    depth = 1,
    request: EncodedRequest | null = null,
    next: NextExchange | null = null,
  ): Promise<number> {
    if (this.#sock === null && !(await this.open())) return 0;
    if (this.#inline !== null) {
      return new Promise((resolve) => {
        this.#settle = resolve;
        this.#next = next;
        if (!this.#begin(intendedMs, depth, request, -1)) {
          this.#settle = this.#next = null;
          resolve(0);
        }
      });
    }
    const sock = this.#sock!;
    if (!this.#begin(intendedMs, depth, request, -1)) return 0;
    const buf = this.#buf;
    while (true) {
      let n: number | null;
      try {
        n = await sock.read(buf);
      } catch (err) {
        this.#fail(err);
        break;
      }
      if (this.#consume(n, performance.now())) break;
    }
    return this.#end();
  }

  /**
   * Starts an exchange: picks and writes the request, then (inline) arms the read. `sentMs` is now
   * when the caller has just read the clock (a chained exchange: the previous response's end, a
   * microsecond ago), else negative. False when there was nothing to send (the mix's data rows ran
   * out): no exchange started.
   */
  #begin(intendedMs: number, depth: number, request: EncodedRequest | null, sentMs: number): boolean {
    const shared = this.shared;
    const bytes = this.#requests.pick(depth, request);
    if (bytes === null) return false;
    if (sentMs < 0) sentMs = performance.now();
    this.lastEventMs = sentMs;
    this.#intendedMs = intendedMs < 0 ? sentMs : intendedMs;
    this.#sentMs = sentMs;
    this.#depth = depth;
    this.#done = 0;
    this.#active = true;
    this.deadlineMs = sentMs + shared.timeoutMs;
    this.timedOut = false;
    this.#writing = bytes;
    this.#writeOffset = 0;
    this.#writeError = null;
    shared.recorder.addBytesWritten(sentMs, bytes.length);
    shared.recorder.inFlight += depth;
    this.#parser.start(this.#requests.isHead(0));
    if (this.#keep !== 0) this.#keptBytes = this.#keptScan = this.#keptHead = 0;
    if (TRACE_CONN) {
      this.#traceBytes = 0;
      traceConn(this.id, fdOf(this.#sock), "written", `${bytes.length} bytes x${depth}`);
    }
    const inline = this.#inline;
    if (inline === null) {
      this.#sock!.write(bytes).then(this.#onWritten, this.#onWriteError);
      return true;
    }
    // Armed before the write, so a write that fails at once fails the armed read, as on Deno.Conn.
    inline.armRead(this.#buf, this.#reader);
    let n: number;
    try {
      n = inline.writeNow(bytes);
    } catch (err) {
      this.#onWriteError(err);
      return true;
    }
    if (n < bytes.length) this.#written(n);
    return true;
  }

  /** How long (ms) the exchange in progress has waited since it was sent at `nowMs`; -1 when idle. */
  waitedMs(nowMs: number): number {
    return this.#active ? nowMs - this.#sentMs : -1;
  }

  /**
   * The run is over with this exchange still waiting (the graceful stop ended): counts its unanswered
   * requests as `unfinished`, so a request sent is never lost from the results. Call before `stopping`
   * is set and the socket closed (failures after that are not counted).
   */
  countUnfinished(nowMs: number, message: string): void {
    if (!this.#active) return;
    this.#countFailed(nowMs, "unfinished", message, this.#depth - this.#done);
    this.#done = this.#depth;
  }

  /** Ends the exchange in progress; its response count. */
  #end(): number {
    if (TRACE_CONN) traceConn(this.id, fdOf(this.#sock), "done", `${this.#done}/${this.#depth} answered`);
    this.#active = false;
    this.shared.recorder.inFlight -= this.#depth;
    this.deadlineMs = Infinity;
    return this.#done;
  }

  /** Inline read: parse, then read on, or end the exchange. */
  #inlineRead(n: number | null): boolean {
    const inline = this.#inline!;
    if (!this.#consume(n, inline.nowMs())) {
      inline.armRead(this.#buf, this.#reader);
      return false;
    }
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

  /**
   * Takes `n` bytes read at `nowMs` (null: end of stream): records every response they end. True
   * when the exchange is over (all responses in, or failed and counted, the socket then closed).
   */
  #consume(n: number | null, nowMs: number): boolean {
    this.lastEventMs = nowMs;
    const depth = this.#depth;
    const parser = this.#parser;
    if (n === null) {
      if (parser.completesAtEof()) {
        this.#complete(nowMs);
        this.#done++;
      }
      if (this.#done < depth) this.#countFailed(nowMs, "closed-early", CLOSED_EARLY, depth - this.#done);
      this.abort();
      return true;
    }
    this.shared.recorder.addBytesRead(nowMs, n);
    if (TRACE_CONN && this.#traceBytes === 0) {
      traceConn(this.id, fdOf(this.#sock), "first-byte", `${n} bytes`);
    }
    if (TRACE_CONN) this.#traceBytes += n;
    const buf = this.#buf;
    let offset = 0;
    while (offset < n) {
      const end = parser.feed(buf, offset, n);
      if (this.#keep !== 0) this.#keepBytes(buf, offset, end < 0 ? n : end);
      if (end === NEED_MORE) return false;
      if (end === PARSE_ERROR) {
        this.#countFailed(nowMs, "parse", parser.error, depth - this.#done);
        return this.#abortCounted();
      }
      if (end < n && this.#done + 1 === depth && parser.keepAlive && !emptyLines(buf, end, n)) {
        // Bytes nobody asked for (a body longer than its Content-Length): the stream is out of step,
        // so the next response could not be told apart from them. Count it once and start afresh.
        this.#countFailed(nowMs, "parse", UNSOLICITED, 1);
        return this.#abortCounted();
      }
      this.#complete(nowMs);
      this.shared.log?.write(parser.status, this.#intendedMs, nowMs, this.id);
      this.#done++;
      if (!parser.keepAlive) {
        if (this.#done < depth) this.#countFailed(nowMs, "closed-early", CLOSED_EARLY, depth - this.#done);
        return this.#abortCounted();
      }
      if (this.#done === depth) return true;
      parser.start(this.#requests.isHead(this.#done));
      offset = end;
    }
    return false;
  }

  /** Closes after a failure already counted: the exchange reports all its requests as handled. */
  #abortCounted(): boolean {
    this.abort();
    this.#done = this.#depth;
    return true;
  }

  /** A short write: send the rest (the response cannot start before the request ends). */
  #written(n: number): void {
    this.#writeOffset += n;
    if (this.#writeOffset >= this.#writing.length || this.#sock === null) return;
    this.#sock.write(this.#writing.subarray(this.#writeOffset)).then(this.#onWritten, this.#onWriteError);
  }

  #complete(nowMs: number): void {
    this.shared.recorder.recordResponse(
      nowMs,
      this.#parser.status,
      (nowMs - this.#intendedMs) * 1000,
      (nowMs - this.#sentMs) * 1000,
    );
  }

  #countFailed(nowMs: number, kind: ErrorKind, message: string, count: number): void {
    if (this.shared.stopping) return;
    for (let k = 0; k < count; k++) this.shared.recorder.recordError(nowMs, kind, message);
  }

  /** A failed read: the watchdog's timeout, our failed write, or the peer's reset. */
  #fail(err: unknown): void {
    const count = this.#depth - this.#done;
    const timedOut = this.timedOut;
    const writeError = this.#writeError;
    this.abort();
    const nowMs = performance.now();
    if (TRACE_CONN) traceConn(this.id, -1, "failed", timedOut ? "timeout" : errorMessage(writeError ?? err));
    if (timedOut) {
      this.#countFailed(nowMs, "timeout", responseTimeoutMessage(this.shared.timeoutMs, err), count);
    } else if (writeError !== null) {
      this.#countFailed(nowMs, classifyError(writeError, "write"), errorMessage(writeError), count);
    } else this.#countFailed(nowMs, classifyError(err, "read"), errorMessage(err), count);
  }
}

const EMPTY = new Uint8Array(0);

/**
 * Whether buf[from, to) is only a few empty lines (CRLF or LF): what a server may send between responses,
 * which the next response's parse would skip anyway (http1/message_framer.ts), so not unsolicited bytes.
 */
function emptyLines(buf: Uint8Array, from: number, to: number): boolean {
  if (to - from > 2 * MAX_EMPTY_LINES) return false;
  for (let k = from; k < to; k++) if (buf[k] !== 10 && buf[k] !== 13) return false;
  return true;
}

/** The socket's file descriptor for the trace (epoll sockets have one; Deno.Conn: -1). */
function fdOf(sock: TransportConn | null): number {
  return sock !== null && "fd" in sock && typeof sock.fd === "number" ? sock.fd : -1;
}
