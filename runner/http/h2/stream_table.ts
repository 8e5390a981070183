/**
 * @module
 * The streams of an HTTP/2 connection (RFC 9113 section 5). HOT PATH: a request starts on a new stream id at
 * once when the peer allows (else waits in `pending`), its body sent as far as the windows allow.
 */
import type { ErrorKind } from "../../../results/mod.ts";
import {
  CANCEL,
  DATA,
  DEFAULT_WINDOW_BYTES,
  FLAG_END_STREAM,
  FRAME_HEADER_BYTES,
  MAX_STREAM_ID,
  NO_ERROR,
  PROTOCOL_ERROR,
  RST_STREAM_BYTES,
  writeFrameHeader,
  writeRstStream,
} from "../../../http2/frames.ts";
import type { ConnectionShared } from "../load_connection.ts";
import type { H2Output } from "./output.ts";
import { writeHeadersFrames } from "./request.ts";
import { type H2Core, type H2Stream, MAX_GRPC_RESENDS, MAX_RESENDS } from "./stream.ts";
import { elapsedUs } from "../../../results/histogram.ts";

/** Closed streams remembered per connection (a power of two): late frames past it are ignored. */
const CLOSED_RING = 1024;
/** The ring's first size: it doubles as a connection's stream ids pass it, up to CLOSED_RING. */
const CLOSED_RING_FIRST = 16;

/** How a stream closed, for frames that follow (RFC 9113 5.1): unknown or reset by us (ignore them). */
export const CLOSED_UNKNOWN = 0;
/** The server ended it with END_STREAM: DATA or HEADERS after is a connection error STREAM_CLOSED. */
export const CLOSED_ENDED = 1;
/** The end of the length-prefixed gRPC message at `at` of `body` (its 5-byte prefix and its bytes). */
function messageEnd(body: Uint8Array, at: number): number {
  return Math.min(body.length, at + 5 + new DataView(body.buffer, body.byteOffset).getUint32(at + 1));
}

/** The server reset it with RST_STREAM: DATA or HEADERS after is a stream error STREAM_CLOSED. */
export const CLOSED_RESET = 2;

export class StreamTable {
  readonly byId = new Map<number, H2Stream>();
  /** Streams waiting for room: the peer's max concurrent streams, or a connection going away. */
  readonly pending: H2Stream[] = [];
  readonly blocked: H2Stream[] = [];
  nextStreamId = 1;
  /** How the last streams closed (RFC 9113 5.1), by id modulo the ring's size: CLOSED_* in the top 2 bits. */
  closed = new Uint32Array(CLOSED_RING_FIRST);
  sendWindow = DEFAULT_WINDOW_BYTES;
  /** The peer sent GOAWAY (or ids ran out): no new streams; reconnect once the last one ends. */
  goingAway = false;
  /** Most streams open at once on this connection so far, over its reconnects (results). */
  maxOpenStreams = 0;
  /** A stream ended in the batch of frames being handled (the inline pump's "settled"). */
  settled = false;
  readonly #core: H2Core;
  readonly #output: H2Output;
  readonly #shared: ConnectionShared;

  constructor(core: H2Core) {
    this.#core = core;
    this.#output = core.output;
    this.#shared = core.shared;
  }

  reset(): void {
    this.nextStreamId = 1;
    if (this.closed.length > CLOSED_RING_FIRST) this.closed = new Uint32Array(CLOSED_RING_FIRST);
    else this.closed.fill(0);
    this.sendWindow = DEFAULT_WINDOW_BYTES;
    this.goingAway = false;
  }

  send(stream: H2Stream): void {
    if (this.pending.length > 0 || !this.#room()) this.pending.push(stream);
    else this.#openStream(stream);
  }

  /** Whether a stream may open now: the connection is open, not going away, and the peer allows one more. */
  #room(): boolean {
    const core = this.#core;
    return core.isOpen && !this.goingAway && core.gotSettings &&
      this.byId.size < core.peer.maxConcurrentStreams;
  }

  #openStream(stream: H2Stream): void {
    const id = this.nextStreamId;
    if (id > MAX_STREAM_ID) {
      // Stream ids used up: this connection ends like one the server sent GOAWAY on.
      this.goingAway = true;
      this.pending.push(stream);
      if (this.byId.size === 0) this.#core.reconnect();
      return;
    }
    this.nextStreamId += 2;
    const request = stream.request!;
    stream.streamId = id;
    stream.refused = false;
    stream.status = 0;
    stream.contentRemaining = -1;
    stream.recvUnacked = 0;
    stream.bodyOffset = 0;
    const body = request.body;
    stream.pauseAt = body === null ? 0 : this.#core.run.streamIntervalMs ? messageEnd(body, 0) : body.length;
    stream.answer?.start(request.oneMessage === true);
    stream.sendWindow = this.#core.peer.initialWindowBytes;
    this.byId.set(id, stream);
    if (this.byId.size > this.maxOpenStreams) this.maxOpenStreams = this.byId.size;
    const output = this.#output;
    const at = output.reserve(request.frames.length);
    output.wrote(writeHeadersFrames(output.bytes, at, request, id));
    const written = request.frames.length + (body?.length ?? 0);
    this.#shared.recorder.addBytesWritten(stream.sentMs, written, stream.endpoint);
    if (body !== null) this.sendBody(stream);
  }

  sendBody(stream: H2Stream): void {
    const body = stream.request!.body!;
    const output = this.#output;
    const maxFrameBytes = this.#core.peer.maxFrameBytes;
    while (stream.bodyOffset < stream.pauseAt) {
      const room = Math.min(this.sendWindow, stream.sendWindow, maxFrameBytes);
      if (room <= 0) {
        if (!this.blocked.includes(stream)) this.blocked.push(stream);
        return;
      }
      const size = Math.min(room, stream.pauseAt - stream.bodyOffset);
      const last = stream.bodyOffset + size === body.length;
      const at = output.reserve(FRAME_HEADER_BYTES + size);
      const out = output.bytes;
      const p = writeFrameHeader(out, at, size, DATA, last ? FLAG_END_STREAM : 0, stream.streamId);
      out.set(body.subarray(stream.bodyOffset, stream.bodyOffset + size), p);
      output.wrote(p + size);
      stream.bodyOffset += size;
      this.sendWindow -= size;
      stream.sendWindow -= size;
    }
    if (stream.bodyOffset < body.length) this.#sendLater(stream, stream.streamId);
  }

  /** The stream's next message after the run's stream interval, if the stream is still open then. */
  #sendLater(stream: H2Stream, id: number): void {
    setTimeout(() => {
      if (this.byId.get(id) !== stream) return;
      stream.pauseAt = messageEnd(stream.request!.body!, stream.bodyOffset);
      this.sendBody(stream);
    }, this.#core.run.streamIntervalMs);
  }

  /** A stream ended: a waiting one may start. A failure with a `statusSlot` (gRPC's) counts as answered. */
  endStream(stream: H2Stream, nowMs: number, kind: ErrorKind | null, message: string, statusSlot = 0): void {
    if (this.byId.get(stream.streamId) === stream) this.byId.delete(stream.streamId);
    this.unblock(stream);
    const shared = this.#shared;
    stream.answered = kind === null;
    if (kind === null) {
      const body = stream.request?.body ?? null;
      if (body === null || stream.bodyOffset === body.length) this.closedAs(stream.streamId, CLOSED_ENDED);
      else if (this.#core.isOpen) {
        // Answered before its body went (RFC 9113 8.1): reset, or the server still counts the stream.
        this.resetStream(stream.streamId, NO_ERROR);
      }
      shared.recorder.recordResponse(
        nowMs,
        stream.status,
        elapsedUs(stream.intendedMs, nowMs),
        elapsedUs(stream.sentMs, nowMs),
        stream.endpoint,
      );
      // A streamed answer (gRPC's server stream): its first message's latency too, from the same start.
      const firstMs = stream.answer?.firstMessageMs;
      if (firstMs !== undefined && firstMs === firstMs) {
        shared.recorder.recordFirstMessage(nowMs, elapsedUs(stream.intendedMs, firstMs));
      }
      shared.log?.write(stream.status, stream.intendedMs, stream.sentMs, nowMs, this.#core.id);
    } else if (statusSlot > 0) {
      const latencyUs = elapsedUs(stream.intendedMs, nowMs);
      const rawUs = elapsedUs(stream.sentMs, nowMs);
      shared.recorder.recordAnswered(nowMs, statusSlot, kind, message, latencyUs, rawUs, stream.endpoint);
      shared.log?.write(statusSlot, stream.intendedMs, stream.sentMs, nowMs, this.#core.id);
    } else if (!shared.stopping) {
      shared.recorder.recordError(nowMs, kind, message, stream.endpoint);
      shared.log?.unanswered(stream.intendedMs, stream.sentMs, nowMs, this.#core.id);
    }
    this.settled = true;
    this.startPending();
    stream.ended(nowMs, true);
    if (this.goingAway && this.byId.size === 0) this.#core.reconnect();
  }

  /** The server ended `stream`'s answer: a success unless the stream's judge (gRPC's status) fails it. */
  endAnswer(stream: H2Stream, nowMs: number, trailers: boolean): void {
    const answer = stream.answer;
    if (answer === null) return this.endStream(stream, nowMs, null, "");
    const kind = answer.end(trailers);
    // The judge's success is its protocol's OK whatever the HTTP status (gRPC's grpc-status 0 under a 503).
    if (kind === null) stream.status = 200;
    this.endStream(stream, nowMs, kind, answer.message, kind === null ? 0 : answer.statusSlot);
  }

  /** The stream's judge failed it: counted, and cancelled while the server may still be `sending`. */
  answerFailed(stream: H2Stream, kind: ErrorKind, nowMs: number, sending: boolean): boolean {
    if (sending) this.resetStream(stream.streamId, CANCEL);
    this.endStream(stream, nowMs, kind, stream.answer!.message, stream.answer!.statusSlot);
    return true;
  }

  /** Refused unprocessed (RFC 9113 8.7), `stream` goes first in `pending` until its re-sends are spent. */
  resend(stream: H2Stream, nowMs: number): boolean {
    if (this.byId.get(stream.streamId) === stream) this.byId.delete(stream.streamId);
    this.unblock(stream);
    const most = stream.answer === null ? MAX_RESENDS : MAX_GRPC_RESENDS;
    if (stream.resends >= most || this.#shared.stopping) return false;
    stream.resends++;
    stream.refused = true;
    this.#shared.recorder.retried(nowMs);
    this.pending.unshift(stream);
    return true;
  }

  /** Why a request refused past its re-sends failed: `cause` and how many times it was refused. */
  refusedMessage(stream: H2Stream, cause: string): string {
    return `${cause}: refused ${stream.resends + 1} times, not sent again`;
  }

  startPending(): void {
    while (this.pending.length > 0 && this.#room()) this.#openStream(this.pending.shift()!);
  }

  cancel(stream: H2Stream, message: string): void {
    this.cancelQuietly(stream);
    this.endStream(stream, performance.now(), "timeout", message);
  }

  /** Forgets `stream` without counting it (its caller does): RST_STREAM CANCEL when it was open. */
  cancelQuietly(stream: H2Stream): void {
    const waiting = this.pending.indexOf(stream);
    if (waiting >= 0) this.pending.splice(waiting, 1);
    else if (this.byId.get(stream.streamId) === stream) {
      this.byId.delete(stream.streamId);
      if (this.#core.isOpen) this.resetStream(stream.streamId, CANCEL);
    }
    this.unblock(stream);
  }

  resetStream(streamId: number, errorCode: number): void {
    const at = this.#output.reserve(RST_STREAM_BYTES);
    this.#output.wrote(writeRstStream(this.#output.bytes, at, streamId, errorCode));
  }

  /** Remembers how stream `id` closed (a CLOSED_*), for the frames the server may still send on it. */
  closedAs(id: number, how: number): void {
    const half = id >>> 1;
    if (half >= this.closed.length && this.closed.length < CLOSED_RING) this.#growRing(half);
    this.closed[half & (this.closed.length - 1)] = (how << 30 | half) >>> 0;
  }

  /** How stream `id` closed, if it is remembered (CLOSED_UNKNOWN otherwise; an even id never is). */
  closedHowOf(id: number): number {
    const entry = this.closed[(id >>> 1) & (this.closed.length - 1)];
    return (id & 1) === 1 && entry !== 0 && (entry & 0x3fff_ffff) === id >>> 1
      ? entry >>> 30
      : CLOSED_UNKNOWN;
  }

  /** Doubles the ring until `half` (an id's upper bits) fits unwrapped, or up to CLOSED_RING. */
  #growRing(half: number): void {
    let size = this.closed.length;
    while (half >= size && size < CLOSED_RING) size *= 2;
    const grown = new Uint32Array(size);
    for (let k = 0; k < this.closed.length; k++) {
      const old = this.closed[k];
      if (old !== 0) grown[(old & 0x3fff_ffff) & (size - 1)] = old;
    }
    this.closed = grown;
  }

  unblock(stream: H2Stream): void {
    const k = this.blocked.indexOf(stream);
    if (k >= 0) this.blocked.splice(k, 1);
  }

  /** A stream id the peer used that we never opened (idle) is a connection error. */
  idle(streamId: number): boolean {
    return (streamId & 1) === 0 || streamId >= this.nextStreamId;
  }

  /** The stream broke the protocol: RST_STREAM with `code`, counted `h2-protocol`; the connection goes on. */
  streamError(stream: H2Stream, message: string, nowMs: number, code = PROTOCOL_ERROR): boolean {
    this.resetStream(stream.streamId, code);
    this.endStream(stream, nowMs, "h2-protocol", message);
    return true;
  }
}
