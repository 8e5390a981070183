/**
 * @module
 * One keep-alive HTTP/1.1 connection of the load generator. HOT PATH: `exchange` writes pre-encoded
 * bytes, reads into one reused buffer per connection and lets the byte-scanning parser find response
 * ends; it records into the worker's recorder and allocates nothing per request beyond the promises of
 * the write and the read. Failures are counted by kind, never thrown. Timeouts are enforced from outside
 * by the worker's watchdog (`deadlineMs` + `abort`), so no timer is armed per request. The transport
 * (plain TCP or TLS) is chosen once per target, like wrk's function table.
 */
import type { IntervalRecorder } from "../stats/recorder.ts";
import type { ErrorKind } from "../../results/mod.ts";
import type { EncodedRequest, RequestMix } from "./request.ts";
import { NEED_MORE, PARSE_ERROR, ResponseParser } from "./response_parser.ts";
import type { ConnectGate } from "./connect_gate.ts";

const READ_BUFFER_BYTES = 32 * 1024;

/**
 * What a connection needs of a socket: Deno.Conn's read/write/close contract (a read pending when the
 * socket closes fails). Deno.Conn has it, and so has the epoll transport's socket (epoll_transport.ts).
 */
export interface TransportConn {
  read(buf: Uint8Array): Promise<number | null>;
  write(bytes: Uint8Array): Promise<number>;
  close(): void;
}

/** Opens the socket; TCP, TLS or epoll, picked once for a run. `signal` aborts a connect that hangs. */
export type Transport = (hostname: string, port: number, signal: AbortSignal) => Promise<TransportConn>;

/** The transport for a URL: TCP for http, TCP then TLS for https (so both connects are abortable). */
export function transportFor(url: URL): Transport {
  const tcp = async (hostname: string, port: number, signal: AbortSignal) => {
    const conn = await Deno.connect({ hostname, port, transport: "tcp", signal });
    conn.setNoDelay(true);
    return conn;
  };
  if (url.protocol === "https:") {
    const serverName = url.hostname.replace(/^\[(.*)\]$/, "$1");
    return async (hostname, port, signal) =>
      Deno.startTls(await tcp(hostname, port, signal), { hostname: serverName });
  }
  return tcp;
}

/** Host and port to dial for a URL (brackets stripped from IPv6 literals). */
export function dialTarget(url: URL): { hostname: string; port: number } {
  const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
  return { hostname, port };
}

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
  readonly timeoutMs: number;
  /** Cap of a response head; a bigger one is a `parse` error and the connection closes. */
  readonly maxHeaderBytes: number;
  /** Bounds connects in flight at once (every `open` passes it). */
  readonly connectGate: ConnectGate;
  log: ResponseSink | null;
  /** True once the run is over: failures caused by our own shutdown are not counted. */
  stopping: boolean;
}

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

export class Connection {
  /** Watchdog deadline (performance.now() ms) of the exchange in progress; Infinity when idle. */
  deadlineMs = Infinity;
  /** Set by the watchdog before it aborts the socket, so the failed read is counted as a timeout. */
  timedOut = false;
  /** `performance.now()` when the last exchange ended: closed loops reuse it instead of asking again. */
  lastEventMs = 0;
  #sock: TransportConn | null = null;
  /** Aborts the connect in progress (watchdog timeout or shutdown); null when not connecting. */
  #connecting: AbortController | null = null;
  readonly #buf = new Uint8Array(READ_BUFFER_BYTES);
  readonly #parser: ResponseParser;
  readonly #heads: Uint8Array;
  #everOpened = false;
  /** Bytes being written and how far; the write is not awaited (the response read is). */
  #writing: Uint8Array = EMPTY;
  #writeOffset = 0;
  #writeError: unknown = null;
  /** Reused buffer for pipelined requests, so depth > 1 is still one write. */
  #batch: Uint8Array = EMPTY;
  // Bound once: handlers of the un-awaited write, so no closure is created per request.
  readonly #onWritten = (n: number) => this.#written(n);
  readonly #onWriteError = (err: unknown) => {
    this.#writeError = err;
    this.abort();
  };

  constructor(readonly id: number, readonly shared: ConnectionShared, maxDepth = 1) {
    this.#heads = new Uint8Array(maxDepth);
    this.#parser = new ResponseParser(shared.maxHeaderBytes);
  }

  get isOpen(): boolean {
    return this.#sock !== null;
  }

  /** Closes the socket now (watchdog timeout or shutdown); a pending connect or read then fails. */
  abort(): void {
    this.#connecting?.abort();
    const sock = this.#sock;
    if (sock === null) return;
    this.#sock = null;
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
    try {
      this.#sock = await this.shared.transport(this.shared.hostname, this.shared.port, connecting.signal);
    } catch (err) {
      this.lastEventMs = performance.now();
      if (!this.shared.stopping) {
        const message = this.timedOut
          ? `no connection within ${this.shared.timeoutMs} ms`
          : errorMessage(err);
        recorder.recordError(this.lastEventMs, classifyError(err, "connect"), message);
      }
      return false;
    } finally {
      this.#connecting = null;
      this.deadlineMs = Infinity;
    }
    const nowMs = performance.now();
    this.lastEventMs = nowMs;
    recorder.connections++;
    recorder.connected(nowMs, (nowMs - startMs) * 1000);
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
   */
  async exchange(intendedMs: number, depth = 1, request: EncodedRequest | null = null): Promise<number> {
    if (this.#sock === null && !(await this.open())) return 0;
    const sock = this.#sock!;
    const shared = this.shared;
    const recorder = shared.recorder;
    const bytes = request !== null
      ? this.#useRequest(request)
      : depth === 1
      ? this.#pickOne()
      : this.#pickBatch(depth);
    const sentMs = performance.now();
    this.lastEventMs = sentMs;
    if (intendedMs < 0) intendedMs = sentMs;
    this.deadlineMs = sentMs + shared.timeoutMs;
    this.timedOut = false;
    this.#writing = bytes;
    this.#writeOffset = 0;
    this.#writeError = null;
    sock.write(bytes).then(this.#onWritten, this.#onWriteError);
    recorder.addBytesWritten(sentMs, bytes.length);
    recorder.inFlight += depth;
    const parser = this.#parser;
    const buf = this.#buf;
    let done = 0;
    parser.start(this.#heads[0] === 1);
    while (done < depth) {
      let n: number | null;
      try {
        n = await sock.read(buf);
      } catch (err) {
        this.#fail(err, depth - done);
        break;
      }
      const nowMs = performance.now();
      this.lastEventMs = nowMs;
      if (n === null) {
        if (parser.completesAtEof()) {
          this.#complete(nowMs, intendedMs, sentMs);
          done++;
        }
        if (done < depth) this.#countFailed(nowMs, "closed-early", CLOSED_EARLY, depth - done);
        this.abort();
        break;
      }
      recorder.addBytesRead(nowMs, n);
      let offset = 0;
      while (offset < n) {
        const end = parser.feed(buf, offset, n);
        if (end === NEED_MORE) break;
        if (end === PARSE_ERROR) {
          this.#countFailed(nowMs, "parse", parser.error, depth - done);
          this.abort();
          done = depth; // counted: leave the loop
          break;
        }
        if (end < n && done + 1 === depth && parser.keepAlive) {
          // Bytes nobody asked for (a body longer than its Content-Length): the stream is out of step,
          // so the next response could not be told apart from them. Count it once and start afresh.
          this.#countFailed(nowMs, "parse", UNSOLICITED, 1);
          this.abort();
          done = depth;
          break;
        }
        this.#complete(nowMs, intendedMs, sentMs);
        shared.log?.write(parser.status, intendedMs, nowMs, this.id);
        done++;
        if (!parser.keepAlive) {
          if (done < depth) this.#countFailed(nowMs, "closed-early", CLOSED_EARLY, depth - done);
          this.abort();
          done = depth;
          break;
        }
        if (done === depth) break;
        parser.start(this.#heads[done] === 1);
        offset = end;
      }
    }
    recorder.inFlight -= depth;
    this.deadlineMs = Infinity;
    return done;
  }

  #pickOne(): Uint8Array {
    const request = this.shared.mix.requests[this.shared.mix.next()];
    this.#heads[0] = request.isHead ? 1 : 0;
    return request.bytes;
  }

  #useRequest(request: EncodedRequest): Uint8Array {
    this.#heads[0] = request.isHead ? 1 : 0;
    return request.bytes;
  }

  #pickBatch(depth: number): Uint8Array {
    const { mix } = this.shared;
    let length = 0;
    for (let k = 0; k < depth; k++) {
      const request = mix.requests[mix.next()];
      this.#heads[k] = request.isHead ? 1 : 0;
      if (this.#batch.length < length + request.bytes.length) {
        const grown = new Uint8Array(Math.max(2 * this.#batch.length, length + request.bytes.length));
        grown.set(this.#batch.subarray(0, length));
        this.#batch = grown;
      }
      this.#batch.set(request.bytes, length);
      length += request.bytes.length;
    }
    return this.#batch.subarray(0, length);
  }

  /** A short write: send the rest (the response cannot start before the request ends). */
  #written(n: number): void {
    this.#writeOffset += n;
    if (this.#writeOffset >= this.#writing.length || this.#sock === null) return;
    this.#sock.write(this.#writing.subarray(this.#writeOffset)).then(this.#onWritten, this.#onWriteError);
  }

  #complete(nowMs: number, intendedMs: number, sentMs: number): void {
    this.shared.recorder.recordResponse(
      nowMs,
      this.#parser.status,
      (nowMs - intendedMs) * 1000,
      (nowMs - sentMs) * 1000,
    );
  }

  #countFailed(nowMs: number, kind: ErrorKind, message: string, count: number): void {
    if (this.shared.stopping) return;
    for (let k = 0; k < count; k++) this.shared.recorder.recordError(nowMs, kind, message);
  }

  /** A failed read: the watchdog's timeout, our failed write, or the peer's reset. */
  #fail(err: unknown, count: number): void {
    const timedOut = this.timedOut;
    const writeError = this.#writeError;
    this.abort();
    const nowMs = performance.now();
    if (timedOut) {
      this.#countFailed(nowMs, "timeout", `no response within ${this.shared.timeoutMs} ms`, count);
    } else if (writeError !== null) {
      this.#countFailed(nowMs, classifyError(writeError, "write"), errorMessage(writeError), count);
    } else this.#countFailed(nowMs, classifyError(err, "read"), errorMessage(err), count);
  }
}

const EMPTY = new Uint8Array(0);
const CLOSED_EARLY = "connection closed before the response ended";
const UNSOLICITED = "bytes after the end of the response (a body longer than its Content-Length?)";

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
