/**
 * @module
 * HTTP/3 for the executors: each request stream an h3 connection may carry is an `H3Slot` shaped as a
 * `LoadConnection`. A request is one bidirectional QUIC stream, two rids (deno_quic.ts), written once and
 * read to its FIN; the watchdog's timeout closes the receive side (STOP_SENDING), not the connection.
 */
import type { ErrorKind } from "../../../results/mod.ts";
import type { LoadConnection } from "../load_connection.ts";
import type { RequestMix } from "../request.ts";
import { FRAME_HEADERS, h3ErrorName, H3FrameReader, READ_DATA, READ_FRAME } from "../../../http3/frames.ts";
import { qpackErrorName, qpackH3Code } from "../../../http3/qpack_decoder.ts";
import { bytesRoughly, errorMessage, responseTimeoutMessage } from "../exchange_errors.ts";
import { type H3Connection, IGNORE } from "./connection.ts";
import type { H3Request } from "./request.ts";
import { core } from "./deno_quic.ts";

const READ_BYTES = 16384;

export class H3Slot implements LoadConnection {
  deadlineMs = Infinity;
  timedOut = false;
  lastEventMs = 0;
  readonly maxDepth = 1;
  #active = false;
  /** The stream's receive side's rid, -1 unopened; closing it again does nothing. */
  #rx = -1;
  /** Ends the pending read (-1) on a cancel (Deno's read op cannot be); `#read` starts one, made once. */
  #wake: ((n: number) => void) | null = null;
  readonly #read = (resolve: (n: number) => void, reject: (err: unknown) => void): void => {
    this.#wake = resolve;
    core.read(this.#rx, this.#buffer).then(resolve, reject);
  };
  /** Where answers are read; a new one after a cancel, which the abandoned read may still fill. */
  #buffer = new Uint8Array(READ_BYTES);
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

  /** The mix's next request on a new stream from `intendedMs` (negative: now): 1 if answered, else 0. */
  async exchange(intendedMs: number): Promise<number> {
    const session = this.session;
    if (session.conn === null && !(await session.open())) return 0;
    const conn = session.conn!;
    const openStream = session.openStream;
    const shared = session.shared;
    const recorder = shared.recorder;
    const request = this.#requests[this.#mix.next()];
    const endpoint = request.endpoint;
    const sentMs = performance.now();
    this.lastEventMs = sentMs;
    this.deadlineMs = sentMs + shared.timeoutMs;
    this.timedOut = false;
    this.#active = true;
    this.#rx = -1;
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
      const [tx, rx] = await openStream();
      this.#rx = rx;
      // A failed write shows on the read side too; quinn finishes the send side when the op ends (FIN).
      core.writeAll(tx, request.bytes).catch(IGNORE);
      core.tryClose(tx);
      recorder.addBytesWritten(sentMs, request.bytes.length, endpoint);
      const decoder = session.decoder;
      read: while (!this.timedOut) {
        const buffer = this.#buffer;
        const end = await new Promise<number>(this.#read);
        this.#wake = null;
        if (end <= 0) break;
        received += end;
        for (let at = 0; at < end;) {
          at = frames.read(buffer, at, end);
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
    } catch (err) {
      if (!this.timedOut) {
        kind = session.conn === conn ? "reset" : session.failKind;
        message = session.conn === conn ? `the stream failed: ${errorMessage(err)}` : session.failMessage;
      }
    }
    const endMs = performance.now();
    this.#cancel();
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
      const fromMs = intendedMs < 0 ? sentMs : intendedMs;
      recorder.recordResponse(endMs, status, (endMs - fromMs) * 1000, (endMs - sentMs) * 1000, endpoint);
      return 1;
    }
    if (!shared.stopping) recorder.recordError(endMs, kind, message, endpoint);
    return 0;
  }

  /** Why the timeout came: the stream never opened (no stream credit), or what of its answer had come. */
  #timeoutMessage(status: number, received: number): string {
    const timeoutMs = this.session.shared.timeoutMs;
    if (this.#rx < 0) {
      return `no response within ${timeoutMs} ms: never sent: every stream the server allows was busy`;
    }
    if (status === 0) return responseTimeoutMessage(timeoutMs, null, received);
    return `no complete response within ${timeoutMs} ms: its head and ${
      received === 0 ? "no body" : `${bytesRoughly(received)} of it`
    } had arrived`;
  }

  /** The watchdog's timeout cancels the stream (STOP_SENDING); any other abort closes the connection. */
  abort(): void {
    if (!this.timedOut) return this.session.close();
    this.deadlineMs = Infinity;
    this.#cancel();
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
    this.#cancel();
  }

  /** Closes the receive side and ends a pending read, whose op holds the resource and may fill its buffer. */
  #cancel(): void {
    if (this.#rx >= 0) core.tryClose(this.#rx);
    if (this.#wake === null) return;
    this.#buffer = new Uint8Array(READ_BYTES);
    this.#wake(-1);
    this.#wake = null;
  }
}
