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
import type { ErrorKind } from "../results.ts";
import type { RequestMix } from "./request.ts";
import { NEED_MORE, PARSE_ERROR, ResponseParser } from "./response_parser.ts";

const READ_BUFFER_BYTES = 32 * 1024;

/** Opens the socket; TCP or TLS, picked once for a target. */
export type Transport = (hostname: string, port: number) => Promise<Deno.Conn>;

/** The transport for a URL: `Deno.connect` for http, `Deno.connectTls` for https. */
export function transportFor(url: URL): Transport {
  if (url.protocol === "https:") {
    return (hostname, port) => Deno.connectTls({ hostname, port });
  }
  return async (hostname, port) => {
    const conn = await Deno.connect({ hostname, port, transport: "tcp" });
    conn.setNoDelay(true);
    return conn;
  };
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
  #sock: Deno.Conn | null = null;
  readonly #buf = new Uint8Array(READ_BUFFER_BYTES);
  readonly #parser = new ResponseParser();
  readonly #heads: Uint8Array;
  readonly #picks: Uint16Array;
  #everOpened = false;

  constructor(readonly id: number, readonly shared: ConnectionShared, maxDepth = 1) {
    this.#heads = new Uint8Array(maxDepth);
    this.#picks = new Uint16Array(maxDepth);
  }

  get isOpen(): boolean {
    return this.#sock !== null;
  }

  /** Closes the socket now (watchdog timeout or shutdown); a pending read then fails. */
  abort(): void {
    const sock = this.#sock;
    if (sock === null) return;
    this.#sock = null;
    this.shared.recorder.connections--;
    try {
      sock.close();
    } catch { /* already closed */ }
  }

  /** Dials; records the connect time or the error. */
  async open(): Promise<boolean> {
    const { recorder } = this.shared;
    const startMs = performance.now();
    this.deadlineMs = startMs + this.shared.timeoutMs;
    try {
      this.#sock = await this.shared.transport(this.shared.hostname, this.shared.port);
    } catch (err) {
      this.deadlineMs = Infinity;
      if (!this.shared.stopping) {
        recorder.recordError(performance.now(), classifyError(err, "connect"), errorMessage(err));
      }
      return false;
    }
    const nowMs = performance.now();
    this.deadlineMs = Infinity;
    recorder.connections++;
    recorder.connected(nowMs, (nowMs - startMs) * 1000);
    if (this.#everOpened) recorder.reconnected(nowMs);
    this.#everOpened = true;
    return true;
  }

  /**
   * Sends `depth` requests back to back (pipelining when > 1) and reads their responses. Latency is
   * measured from `intendedMs` (coordinated-omission corrected) and from the actual send time.
   * Returns the number of responses received; failures are recorded and leave the socket closed.
   */
  async exchange(intendedMs: number, depth = 1): Promise<number> {
    if (this.#sock === null && !(await this.open())) return 0;
    const { recorder } = this.shared;
    const sentMs = performance.now();
    this.deadlineMs = sentMs + this.shared.timeoutMs;
    this.timedOut = false;
    recorder.inFlight += depth;
    let done = 0;
    try {
      if (!(await this.#writeRequests(sentMs, depth))) return 0;
      done = await this.#readResponses(intendedMs, sentMs, depth);
      return done;
    } finally {
      recorder.inFlight -= depth;
      this.deadlineMs = Infinity;
    }
  }

  async #writeRequests(sentMs: number, depth: number): Promise<boolean> {
    const sock = this.#sock!;
    const { mix, recorder } = this.shared;
    for (let k = 0; k < depth; k++) {
      const pick = mix.next();
      const request = mix.requests[pick];
      this.#picks[k] = pick;
      this.#heads[k] = request.isHead ? 1 : 0;
      try {
        let written = 0;
        while (written < request.bytes.length) {
          written += await sock.write(written === 0 ? request.bytes : request.bytes.subarray(written));
        }
      } catch (err) {
        this.#fail(err, "write", depth);
        return false;
      }
      recorder.addBytesWritten(sentMs, request.bytes.length);
    }
    return true;
  }

  async #readResponses(intendedMs: number, sentMs: number, depth: number): Promise<number> {
    const parser = this.#parser;
    const buf = this.#buf;
    const { recorder, log } = this.shared;
    let done = 0;
    parser.start(this.#heads[0] === 1);
    while (done < depth) {
      let n: number | null;
      try {
        n = await this.#sock!.read(buf);
      } catch (err) {
        this.#fail(err, "read", depth - done);
        return done;
      }
      let nowMs = performance.now();
      if (n === null) {
        if (parser.completesAtEof()) {
          this.#complete(nowMs, intendedMs, sentMs);
          done++;
        }
        if (done < depth) this.#countClosedEarly(nowMs, depth - done);
        this.abort();
        return done;
      }
      recorder.addBytesRead(nowMs, n);
      let offset = 0;
      while (offset < n) {
        const end = parser.feed(buf, offset, n);
        if (end === NEED_MORE) break;
        if (end === PARSE_ERROR) {
          if (!this.shared.stopping) recorder.recordError(nowMs, "parse", parser.error);
          this.abort();
          return done;
        }
        nowMs = performance.now();
        this.#complete(nowMs, intendedMs, sentMs);
        log?.write(parser.status, intendedMs, nowMs, this.id);
        done++;
        if (!parser.keepAlive) {
          if (done < depth) this.#countClosedEarly(nowMs, depth - done);
          this.abort();
          return done;
        }
        if (done === depth) break;
        parser.start(this.#heads[done] === 1);
        offset = end;
      }
    }
    return done;
  }

  #complete(nowMs: number, intendedMs: number, sentMs: number): void {
    this.shared.recorder.recordResponse(
      nowMs,
      this.#parser.status,
      (nowMs - intendedMs) * 1000,
      (nowMs - sentMs) * 1000,
    );
  }

  #countClosedEarly(nowMs: number, count: number): void {
    if (this.shared.stopping) return;
    for (let k = 0; k < count; k++) {
      this.shared.recorder.recordError(nowMs, "closed-early", "connection closed before the response ended");
    }
  }

  #fail(err: unknown, phase: "write" | "read", count: number): void {
    const timedOut = this.timedOut;
    this.abort();
    if (this.shared.stopping) return;
    const nowMs = performance.now();
    const kind: ErrorKind = timedOut ? "timeout" : classifyError(err, phase);
    const message = timedOut ? `no response within ${this.shared.timeoutMs} ms` : errorMessage(err);
    for (let k = 0; k < count; k++) this.shared.recorder.recordError(nowMs, kind, message);
  }
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
