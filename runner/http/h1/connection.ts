/**
 * @module
 * One keep-alive HTTP/1.1 load connection: connection_io.ts's socket side with the response side filled
 * in. HOT PATH: the byte-scanning parser finds each response's end in the bytes read and it is recorded,
 * nothing allocated. Failures are counted by kind, never thrown. A flow step that captures, checks or keeps
 * cookies asks (`prepareStep`) for its response's bytes to be kept; every other exchange keeps none.
 */
import type { ErrorKind } from "../../../results/mod.ts";
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
import { fdOf, TRACE_CONN, traceConn } from "../transport/conn_trace.ts";
import { ConnectionIo } from "./connection_io.ts";
import { DEFAULT_KEPT_BYTES, KeptBytes, keptTooLargeMessage } from "../kept_bytes.ts";
import { KeptResponse } from "../kept_response.ts";
import type { StepConnection, StepRequest } from "../load_connection.ts";
import { elapsedUs } from "../../../results/histogram.ts";

const NO_VALUES: Uint8Array[] = [];

export class Connection extends ConnectionIo implements StepConnection {
  readonly #parser = new ResponseParser(this.shared.maxHeaderBytes);
  /** What of the responses to keep for the session (`keep`): 0 nothing, 1 the head, 2 head and body. */
  #keep = 0;
  /** The most bytes kept of the step's response; past it the response fails as `body-too-large`. */
  #keptLimit = DEFAULT_KEPT_BYTES;
  readonly #kept = new KeptBytes();
  /** Bytes read in the exchange in progress: a timeout says how much of the response had come. */
  #arrivedBytes = 0;

  /** For a flow step that keeps its response: values, a Cookie line, what to keep (0-2) and its cap. */
  prepareStep(
    values: ReadonlyArray<Uint8Array>,
    extraHead: Uint8Array | null,
    keep: number,
    keptLimit = DEFAULT_KEPT_BYTES,
  ): void {
    this.requests.values = values;
    this.requests.extraHead = extraHead;
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
  keptBytes(): Uint8Array {
    return this.#kept.view();
  }

  /** The session is over: the next exchanges keep nothing and fill no session values. */
  endSession(): void {
    this.prepareStep(NO_VALUES, null, 0);
  }

  protected started(): void {
    this.#parser.start(this.requests.isHead(0));
    if (this.#keep !== 0) this.#kept.reset(this.#keptLimit);
    this.#arrivedBytes = 0;
  }

  /** Counts unanswered requests as `unfinished`; call before `stopping` is set and the socket closed. */
  countUnfinished(nowMs: number): void {
    if (!this.active) return;
    if (!this.shared.stopping) this.shared.recorder.unfinished(nowMs, this.depth - this.done);
    this.done = this.depth;
  }

  protected consume(n: number | null, nowMs: number): boolean {
    this.lastEventMs = nowMs;
    const depth = this.depth;
    const parser = this.#parser;
    if (n === null) {
      // The response in progress was cut short (or is complete, framed by the close); later ones never began.
      if (parser.completesAtEof()) {
        this.#complete(nowMs);
        this.done++;
      } else if (parser.started && this.done < depth) {
        this.#countFailed(nowMs, "closed-early", CLOSED_EARLY, 1);
        this.done++;
      }
      this.#countUnanswered(nowMs);
      this.abort();
      return true;
    }
    this.shared.recorder.addBytesRead(nowMs, n, this.requests.endpointOf(this.done));
    if (TRACE_CONN && this.#arrivedBytes === 0) {
      traceConn(this.id, fdOf(this.sock), "first-byte", `${n} bytes`);
    }
    this.#arrivedBytes += n;
    const buf = this.buf;
    let offset = 0;
    while (offset < n) {
      const end = parser.feed(buf, offset, n);
      if (this.#keep !== 0 && !this.#kept.append(buf, offset, end < 0 ? n : end, this.#keep === 1)) {
        // Past what the step keeps: no capture could run on a cut body; the rest is not worth reading.
        this.#countFailed(nowMs, "body-too-large", keptTooLargeMessage(this.#keptLimit), depth - this.done);
        return this.#abortCounted();
      }
      if (end === NEED_MORE) return false;
      if (end === PARSE_ERROR) {
        this.#countFailed(nowMs, "parse", parser.error, depth - this.done);
        return this.#abortCounted();
      }
      if (end < n && this.done + 1 === depth && parser.keepAlive && !emptyLines(buf, end, n)) {
        // Bytes nobody asked for: the stream is out of step, so count it once and start afresh.
        this.#countFailed(nowMs, "parse", UNSOLICITED, 1);
        return this.#abortCounted();
      }
      this.#complete(nowMs);
      this.done++;
      if (!parser.keepAlive) {
        this.#countUnanswered(nowMs);
        return this.#abortCounted();
      }
      if (this.done === depth) return true;
      parser.start(this.requests.isHead(this.done));
      offset = end;
    }
    return false;
  }

  /** The exchange's requests after `done` are lost with the connection before any byte of their responses. */
  #countUnanswered(nowMs: number): void {
    if (this.done < this.depth) {
      this.#countFailed(nowMs, "closed-early", CLOSED_UNANSWERED, this.depth - this.done);
    }
  }

  /** Closes after a failure already counted: the exchange reports all its requests as handled. */
  #abortCounted(): boolean {
    this.abort();
    this.done = this.depth;
    return true;
  }

  /** Records a response that ended (by its framing, or by the close for a body read until it). */
  #complete(nowMs: number): void {
    const status = this.#parser.status;
    this.shared.recorder.recordResponse(
      nowMs,
      status,
      elapsedUs(this.intendedMs, nowMs),
      elapsedUs(this.sentMs, nowMs),
      this.requests.endpointOf(this.done),
    );
    this.shared.log?.write(status, this.intendedMs, nowMs, this.id);
    this.answered++;
  }

  /** Counts the exchange's `count` requests from the one in progress (`done`) on as failed. */
  #countFailed(nowMs: number, kind: ErrorKind, message: string, count: number): void {
    this.failed(kind, message);
    if (this.shared.stopping) return;
    const recorder = this.shared.recorder, requests = this.requests, first = this.done;
    for (let k = 0; k < count; k++) {
      recorder.recordError(nowMs, kind, message, requests.endpointOf(first + k));
    }
  }

  /** A failed read: the watchdog's timeout, our failed write, or the peer's reset. */
  protected fail(err: unknown): void {
    const count = this.depth - this.done;
    const timedOut = this.timedOut;
    const writeError = this.writeError;
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
