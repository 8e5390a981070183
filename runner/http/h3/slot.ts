/**
 * @module
 * HTTP/3 for the executors: each request stream an h3 connection may carry is an `H3Slot` shaped as a
 * `LoadConnection`, grouped `streams` to a connection (protocols.ts, as HTTP/2's are). A request is one
 * bidirectional QUIC stream: its octets written once with FIN, the answer read to its FIN through the
 * slot's frame reader, its HEADERS decoded by the connection's QPACK decoder, its DATA counted. The
 * watchdog's timeout cancels the stream, not the connection. Answers are read into the slot's own buffer
 * (a BYOB reader): the default reader of Deno's QUIC streams allocates 64 KiB per read. Deno's QUIC API
 * still costs objects per request: the stream, its halves, a writer and a reader, a promise per write,
 * close and read, a result per read.
 */
import type { ErrorKind } from "../../../results/mod.ts";
import type { LoadConnection } from "../load_connection.ts";
import type { RequestMix } from "../request.ts";
import { FRAME_HEADERS, h3ErrorName, H3FrameReader, READ_DATA, READ_FRAME } from "../../../http3/frames.ts";
import { qpackErrorName, qpackH3Code } from "../../../http3/qpack_decoder.ts";
import { bytesRoughly, errorMessage, responseTimeoutMessage } from "../exchange_errors.ts";
import type { H3Connection } from "./connection.ts";
import type { H3Request } from "./request.ts";

const STREAM_OPTIONS = { waitUntilAvailable: true };
const BYOB = { mode: "byob" } as const;
const READ_BYTES = 16384;
const IGNORE = () => {};

/** One request stream's worth of an h3 connection, driven like a connection by the executors. */
export class H3Slot implements LoadConnection {
  deadlineMs = Infinity;
  timedOut = false;
  lastEventMs = 0;
  readonly maxDepth = 1;
  #active = false;
  #opened = false;
  #reader: ReadableStreamBYOBReader | null = null;
  /** Where answers are read; each read hands its buffer back (transferred), kept for the next one. */
  #buffer = new ArrayBuffer(0);
  #writer: WritableStreamDefaultWriter<Uint8Array> | null = null;
  readonly #frames = new H3FrameReader(false);
  readonly #mix: RequestMix;
  readonly #requests: readonly H3Request[];

  constructor(readonly id: number, readonly session: H3Connection) {
    this.#mix = session.shared.mix;
    this.#requests = session.run.requests;
  }

  get isOpen(): boolean {
    return this.session.isOpen;
  }

  open(): Promise<boolean> {
    return this.session.open();
  }

  /**
   * The mix's next request on a new stream of this slot's connection, from `intendedMs` (negative: now).
   * Resolves with 1 when it was answered, 0 when it failed (counted by kind) or was never sent.
   */
  async exchange(intendedMs: number): Promise<number> {
    const session = this.session;
    if (session.conn === null && !(await session.open())) return 0;
    const conn = session.conn!;
    const shared = session.shared;
    const recorder = shared.recorder;
    const request = this.#requests[this.#mix.next()];
    const endpoint = request.endpoint;
    const sentMs = performance.now();
    this.lastEventMs = sentMs;
    this.deadlineMs = sentMs + shared.timeoutMs;
    this.timedOut = false;
    this.#active = true;
    this.#opened = false;
    recorder.inFlight++;
    if (++session.openStreams > session.maxOpenStreams) session.maxOpenStreams = session.openStreams;
    let status = 0;
    let kind: ErrorKind | null = null;
    let message = "";
    let received = 0;
    let bodyBytes = 0;
    let contentLength = -1;
    const frames = this.#frames;
    frames.reset();
    try {
      const stream = await conn.createBidirectionalStream(STREAM_OPTIONS);
      this.#opened = true;
      const writer = this.#writer = stream.writable.getWriter();
      const reader = this.#reader = stream.readable.getReader(BYOB);
      if (this.timedOut) reader.cancel().catch(IGNORE);
      // Their failures show on the read side too (a reset stream, a closed connection).
      writer.write(request.bytes).catch(IGNORE);
      writer.close().catch(IGNORE);
      recorder.addBytesWritten(sentMs, request.bytes.length, endpoint);
      const decoder = session.decoder;
      // Made at the first read, and again after a read cancelled or failed kept the buffer (detached).
      if (this.#buffer.byteLength === 0) this.#buffer = new ArrayBuffer(READ_BYTES);
      read: for (;;) {
        const { value, done } = await reader.read(new Uint8Array(this.#buffer));
        if (value !== undefined) this.#buffer = value.buffer;
        if (done) break;
        const end = value.length;
        received += end;
        for (let at = 0; at < end;) {
          at = frames.read(value, at, end);
          if (at < 0) {
            kind = "h3-protocol";
            message = `${h3ErrorName(-at)} on a request stream`;
            break read;
          }
          if (frames.event === READ_DATA) bodyBytes += frames.dataLen;
          else if (frames.event === READ_FRAME && frames.type === FRAME_HEADERS && status < 200) {
            const off = frames.payloadOff;
            const s = decoder.decodeSection(0, frames.payload, off, off + frames.payloadLen);
            if (s <= 0) {
              kind = "h3-protocol";
              message = s === 0
                ? "a response without :status (H3_MESSAGE_ERROR)"
                : `${qpackErrorName(s)} in a response's HEADERS (${h3ErrorName(qpackH3Code(s))})`;
              break read;
            }
            status = s;
            contentLength = decoder.contentLength;
          }
        }
      }
      if (kind !== null) reader.cancel().catch(IGNORE);
    } catch (err) {
      if (!this.timedOut) {
        kind = session.conn === conn ? "reset" : session.failKind;
        message = session.conn === conn ? `the stream failed: ${errorMessage(err)}` : session.failMessage;
      }
    }
    const endMs = performance.now();
    this.#reader = this.#writer = null;
    if (!this.#active) return 0;
    this.#active = false;
    this.deadlineMs = Infinity;
    this.lastEventMs = endMs;
    recorder.inFlight--;
    session.openStreams--;
    if (this.timedOut) {
      kind = "timeout";
      message = this.#timeoutMessage(status, received);
    } else if (kind === null) {
      if (status < 200) {
        kind = session.conn === conn ? "closed-early" : session.failKind;
        message = session.conn === conn
          ? "the stream ended before the response's HEADERS"
          : session.failMessage;
      } else if (!frames.atFrameBoundary) {
        kind = "closed-early";
        message = "the stream ended inside a frame (H3_FRAME_ERROR)";
      } else if (
        contentLength >= 0 && !request.head && status !== 204 && status !== 304 &&
        bodyBytes !== contentLength
      ) {
        kind = "parse";
        message = "DATA not the response's content-length (H3_MESSAGE_ERROR)";
      }
    }
    if (received > 0) recorder.addBytesRead(endMs, received, endpoint);
    if (kind === null) {
      recorder.recordResponse(
        endMs,
        status,
        (endMs - (intendedMs < 0 ? sentMs : intendedMs)) * 1000,
        (endMs - sentMs) * 1000,
        endpoint,
      );
      return 1;
    }
    if (!shared.stopping) recorder.recordError(endMs, kind, message, endpoint);
    return 0;
  }

  /** Why the timeout came: the stream never opened (no stream credit), or what of its answer had come. */
  #timeoutMessage(status: number, received: number): string {
    const timeoutMs = this.session.shared.timeoutMs;
    if (!this.#opened) {
      return `no response within ${timeoutMs} ms: never sent: every stream the server allows was busy`;
    }
    if (status === 0) return responseTimeoutMessage(timeoutMs, null, received);
    return `no complete response within ${timeoutMs} ms: its head and ${
      received === 0 ? "no body" : `${bytesRoughly(received)} of it`
    } had arrived`;
  }

  /**
   * The watchdog's timeout (`timedOut` set): the stream is cancelled (STOP_SENDING and a reset) and counted
   * by the exchange; the connection goes on. Otherwise (shutdown, `release`): the connection closes.
   */
  abort(): void {
    if (this.timedOut) {
      this.deadlineMs = Infinity;
      this.#reader?.cancel().catch(IGNORE);
      this.#writer?.abort().catch(IGNORE);
      return;
    }
    this.session.close();
  }

  release(): void {
    this.session.close();
  }

  countUnfinished(nowMs: number): void {
    if (!this.#active) return;
    this.#active = false;
    const shared = this.session.shared;
    shared.recorder.inFlight--;
    this.session.openStreams--;
    shared.recorder.unfinished(nowMs, 1);
    this.#reader?.cancel().catch(IGNORE);
  }
}
