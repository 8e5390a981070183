/**
 * @module
 * The frames an HTTP/2 client receives, read in place (RFC 9113 section 6). A protocol violation ends the
 * connection with GOAWAY, counted `h2-protocol`. HOT PATH: one switch per frame.
 */
import {
  CANCEL,
  CONTINUATION,
  DATA,
  errorCodeName,
  FLAG_ACK,
  FLAG_END_STREAM,
  FLAG_PADDED,
  FLOW_CONTROL_ERROR,
  FRAME_HEADER_BYTES,
  FRAME_SIZE_ERROR,
  frameFlags,
  frameLength,
  frameStreamId,
  frameType,
  GOAWAY,
  HEADERS,
  NO_ERROR,
  PING,
  PING_BYTES,
  PRIORITY,
  PROTOCOL_ERROR,
  PUSH_PROMISE,
  readUint31,
  readUint32,
  REFUSED_STREAM,
  RST_STREAM,
  SETTINGS,
  STREAM_CLOSED,
  WINDOW_UPDATE,
  WINDOW_UPDATE_BYTES,
  writePing,
  writeWindowUpdate,
} from "../../../http2/frames.ts";
import type { ControlFrames } from "./control_frames.ts";
import { type HeaderBlocks, PAST_LENGTH, SHORT_OF_LENGTH } from "./header_blocks.ts";
import { CLOSED_ENDED, CLOSED_RESET, CLOSED_UNKNOWN, type StreamTable } from "./stream_table.ts";
import type { H2Output } from "./output.ts";
import type { H2Core, H2Run, H2Stream } from "./stream.ts";
import { keptTooLargeMessage } from "../kept_bytes.ts";

/** Our SETTINGS_MAX_FRAME_SIZE (the default: we never raise it). */
export const MAX_FRAME_IN = 16_384;
const HTTP1_REPLY = [0x48, 0x54, 0x54, 0x50, 0x2f]; // "HTTP/"

export class FrameReader {
  /** DATA bytes consumed since the last connection WINDOW_UPDATE. */
  recvUnacked = 0;
  readonly #core: H2Core;
  readonly #run: H2Run;
  readonly #output: H2Output;
  readonly #streams: StreamTable;
  readonly #byId: Map<number, H2Stream>;
  readonly #heads: HeaderBlocks;
  readonly #control: ControlFrames;

  constructor(core: H2Core, streams: StreamTable, heads: HeaderBlocks, control: ControlFrames) {
    this.#core = core;
    this.#run = core.run;
    this.#output = core.output;
    this.#streams = streams;
    this.#byId = streams.byId;
    this.#heads = heads;
    this.#control = control;
  }

  reset(): void {
    this.recvUnacked = 0;
  }

  /** Handles every complete frame in `buf[0, end)`; returns the bytes used (0 after a failure). */
  consume(buf: Uint8Array, end: number, nowMs: number): number {
    const core = this.#core;
    let p = 0;
    while (end - p >= FRAME_HEADER_BYTES) {
      const length = frameLength(buf, p);
      if (!core.gotSettings && !this.#firstFrameOk(buf, p, nowMs)) return 0;
      if (length > MAX_FRAME_IN) {
        core.protocolError(FRAME_SIZE_ERROR, `a frame of ${length} bytes (above 16384)`, nowMs);
        return 0;
      }
      if (end - p - FRAME_HEADER_BYTES < length) break;
      if (!this.#frame(buf, p, length, nowMs) || !core.isOpen) return 0;
      p += FRAME_HEADER_BYTES + length;
    }
    return p;
  }

  /** The server's preface is a SETTINGS frame; an HTTP/1.1 reply is named as such. */
  #firstFrameOk(buf: Uint8Array, p: number, nowMs: number): boolean {
    if (frameType(buf, p) === SETTINGS && frameStreamId(buf, p) === 0) return true;
    const http1 = HTTP1_REPLY.every((b, k) => buf[p + k] === b);
    const what = http1
      ? "the server answered in HTTP/1.1 (it does not speak h2 with prior knowledge)"
      : `the server's first frame is type ${frameType(buf, p)}, not SETTINGS`;
    this.#core.protocolError(PROTOCOL_ERROR, what, nowMs);
    return false;
  }

  #frame(buf: Uint8Array, p: number, length: number, nowMs: number): boolean {
    const type = frameType(buf, p);
    const flags = frameFlags(buf, p);
    const streamId = frameStreamId(buf, p);
    const payload = p + FRAME_HEADER_BYTES;
    if (this.#heads.continuing !== 0 && type !== CONTINUATION) {
      return this.#core.frameError(PROTOCOL_ERROR, `a frame of type ${type} inside a header block`, nowMs);
    }
    switch (type) {
      case DATA:
        return this.#data(buf, payload, length, flags, streamId, nowMs);
      case HEADERS:
        if (streamId !== 0 && !this.#byId.has(streamId) && !this.#streams.idle(streamId)) {
          return this.#closedHeaders(buf, payload, length, flags, streamId, nowMs);
        }
        return this.#heads.headers(buf, payload, length, flags, streamId, nowMs);
      case CONTINUATION:
        return this.#heads.continuation(buf, payload, length, flags, streamId, nowMs);
      case RST_STREAM:
        if (length !== 4) return this.#core.frameError(FRAME_SIZE_ERROR, "RST_STREAM not 4 bytes", nowMs);
        if (streamId === 0) return this.#core.frameError(PROTOCOL_ERROR, "RST_STREAM on stream 0", nowMs);
        return this.#reset(streamId, readUint32(buf, payload), nowMs);
      case PRIORITY:
        // Deprecated signals (RFC 9113 5.3.2), read for their errors only (6.3).
        if (streamId === 0) return this.#core.frameError(PROTOCOL_ERROR, "PRIORITY on stream 0", nowMs);
        if (length !== 5) return this.#badPriority(streamId, FRAME_SIZE_ERROR, "PRIORITY not 5 bytes", nowMs);
        if (readUint31(buf, payload) === streamId) {
          return this.#badPriority(streamId, PROTOCOL_ERROR, "a stream depending on itself", nowMs);
        }
        return true;
      case SETTINGS:
        return this.#control.settings(buf, payload, length, flags, streamId, nowMs);
      case PUSH_PROMISE:
        return this.#core.frameError(PROTOCOL_ERROR, "PUSH_PROMISE with push disabled", nowMs);
      case PING:
        if (length !== 8) return this.#core.frameError(FRAME_SIZE_ERROR, "PING not 8 bytes", nowMs);
        if (streamId !== 0) return this.#core.frameError(PROTOCOL_ERROR, "PING on a stream", nowMs);
        if ((flags & FLAG_ACK) === 0) {
          const at = this.#output.reserve(PING_BYTES);
          this.#output.wrote(writePing(this.#output.bytes, at, true, buf, payload));
        }
        return true;
      case GOAWAY:
        if (length < 8) return this.#core.frameError(FRAME_SIZE_ERROR, "GOAWAY under 8 bytes", nowMs);
        if (streamId !== 0) return this.#core.frameError(PROTOCOL_ERROR, "GOAWAY on a stream", nowMs);
        this.#control.goaway(readUint31(buf, payload), readUint32(buf, payload + 4), nowMs);
        return true;
      case WINDOW_UPDATE:
        if (length !== 4) return this.#core.frameError(FRAME_SIZE_ERROR, "WINDOW_UPDATE not 4 bytes", nowMs);
        return this.#control.windowUpdate(streamId, readUint31(buf, payload), nowMs);
      default:
        return true; // unknown types: ignored (RFC 9113 4.1, 5.5)
    }
  }

  #data(buf: Uint8Array, at: number, length: number, flags: number, id: number, nowMs: number): boolean {
    if (id === 0) return this.#core.frameError(PROTOCOL_ERROR, "DATA on stream 0", nowMs);
    if ((flags & FLAG_PADDED) !== 0 && length === 0) {
      return this.#core.frameError(FRAME_SIZE_ERROR, "DATA padded without its pad length", nowMs);
    }
    if ((flags & FLAG_PADDED) !== 0 && buf[at] >= length) {
      return this.#core.frameError(PROTOCOL_ERROR, "DATA padding longer than the frame", nowMs);
    }
    this.recvUnacked += length;
    if (this.recvUnacked > this.#run.windowBytes) {
      return this.#core.frameError(FLOW_CONTROL_ERROR, "DATA beyond the connection window", nowMs);
    }
    if (this.recvUnacked >= this.#run.windowBytes / 2) {
      const update = this.#output.reserve(WINDOW_UPDATE_BYTES);
      this.#output.wrote(writeWindowUpdate(this.#output.bytes, update, 0, this.recvUnacked));
      this.recvUnacked = 0;
    }
    const stream = this.#byId.get(id);
    if (stream === undefined) {
      if (this.#streams.idle(id)) {
        return this.#core.frameError(PROTOCOL_ERROR, `DATA on idle stream ${id}`, nowMs);
      }
      return this.#afterClose(id, "DATA", nowMs);
    }
    if (stream.status === 0) {
      return this.#streams.streamError(stream, "DATA before the response's HEADERS", nowMs);
    }
    stream.receivedBytes += length;
    const padded = (flags & FLAG_PADDED) !== 0;
    const from = padded ? at + 1 : at;
    const to = padded ? at + length - buf[at] : at + length;
    if (stream.contentRemaining >= 0) {
      stream.contentRemaining -= to - from;
      if (stream.contentRemaining < 0) return this.#streams.streamError(stream, PAST_LENGTH, nowMs);
    }
    const kept = stream.kept;
    if (kept !== null && kept.keepBody && !kept.data(buf, from, to)) {
      // Past what the step keeps: the stream is cancelled (the connection's other streams go on).
      this.#streams.resetStream(id, CANCEL);
      this.#streams.endStream(stream, nowMs, "body-too-large", keptTooLargeMessage(kept.limitBytes));
      return true;
    }
    const answer = stream.answer;
    if (answer !== null) {
      const kind = answer.data(buf, from, to);
      if (kind !== null) {
        return this.#streams.answerFailed(stream, kind, nowMs, (flags & FLAG_END_STREAM) === 0);
      }
    }
    if ((flags & FLAG_END_STREAM) !== 0) {
      if (stream.contentRemaining > 0) return this.#streams.streamError(stream, SHORT_OF_LENGTH, nowMs);
      this.#streams.endAnswer(stream, nowMs, false);
      return true;
    }
    stream.recvUnacked += length;
    if (stream.recvUnacked > this.#run.windowBytes) {
      return this.#streams.streamError(stream, "DATA beyond the stream window", nowMs, FLOW_CONTROL_ERROR);
    }
    if (stream.recvUnacked >= this.#run.windowBytes / 2) {
      const update = this.#output.reserve(WINDOW_UPDATE_BYTES);
      this.#output.wrote(writeWindowUpdate(this.#output.bytes, update, id, stream.recvUnacked));
      stream.recvUnacked = 0;
    }
    return true;
  }

  /** A frame on a closed stream (RFC 9113 5.1): by how it closed, a connection or stream error, or none. */
  #afterClose(id: number, what: string, nowMs: number): boolean {
    const how = this.#streams.closedHowOf(id);
    if (how === CLOSED_ENDED) {
      return this.#core.frameError(STREAM_CLOSED, `${what} after END_STREAM on ${id}`, nowMs);
    }
    if (how === CLOSED_RESET) {
      this.#streams.resetStream(id, STREAM_CLOSED);
      this.#streams.closedAs(id, CLOSED_UNKNOWN); // reset by us now: what follows is ignored
    }
    return true;
  }

  /** HEADERS on a closed stream: decoded all the same (HPACK's table must see it). */
  #closedHeaders(
    buf: Uint8Array,
    at: number,
    length: number,
    flags: number,
    id: number,
    nowMs: number,
  ): boolean {
    if (this.#streams.closedHowOf(id) === CLOSED_ENDED) return this.#afterClose(id, "HEADERS", nowMs);
    return this.#heads.headers(buf, at, length, flags, id, nowMs) && this.#afterClose(id, "HEADERS", nowMs);
  }

  /** A PRIORITY frame in error: a stream error, or on an idle stream (RFC 9113 6.4) a connection error. */
  #badPriority(id: number, code: number, message: string, nowMs: number): boolean {
    if (this.#streams.idle(id)) return this.#core.frameError(code, `${message} (idle stream ${id})`, nowMs);
    this.#streams.resetStream(id, code);
    const stream = this.#byId.get(id);
    if (stream !== undefined) {
      this.#streams.endStream(stream, nowMs, "h2-protocol", `${errorCodeName(code)}: ${message}`);
    }
    return true;
  }

  #reset(id: number, code: number, nowMs: number): boolean {
    const stream = this.#byId.get(id);
    if (stream === undefined) {
      return this.#streams.idle(id)
        ? this.#core.frameError(PROTOCOL_ERROR, `RST_STREAM on idle stream ${id}`, nowMs)
        : true;
    }
    this.#streams.closedAs(id, CLOSED_RESET);
    if (code === REFUSED_STREAM) {
      // Unprocessed (RFC 9113 8.7): sent again as the stream limit allows, or on the new one after GOAWAY.
      if (this.#streams.resend(stream, nowMs)) {
        this.#streams.startPending();
        if (this.#streams.goingAway) {
          if (this.#byId.size === 0) this.#core.reconnect();
          else this.#core.handOver();
        }
      } else {
        this.#streams.endStream(
          stream,
          nowMs,
          "h2-refused-stream",
          this.#streams.refusedMessage(stream, "RST_STREAM REFUSED_STREAM"),
        );
      }
    } else {
      this.#streams.endStream(
        stream,
        nowMs,
        "h2-protocol",
        RESET_MESSAGES[code] ?? `RST_STREAM ${errorCodeName(code)}`,
      );
    }
    return true;
  }
}

const RESET_MESSAGES: Record<number, string> = {
  [PROTOCOL_ERROR]: "RST_STREAM PROTOCOL_ERROR",
  [NO_ERROR]: "RST_STREAM NO_ERROR before the response ended",
};
