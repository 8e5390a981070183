/**
 * @module
 * The response heads an HTTP/2 connection receives (RFC 9113 sections 4.3, 6.2, 6.10): HEADERS frames
 * and the CONTINUATION frames that go on with a split header block, assembled (bounded by
 * `maxHeaderBytes` and by its number of frames) and decoded by the connection's HPACK decoder, always (HPACK's table must see every
 * block) and for the status only, which then goes on the stream, unless a flow step keeps the head
 * (h2/kept.ts: its fields come by the decoder's `onField`); END_STREAM on the head ends it. Interim
 * (1xx) heads may come first, trailers last. A malformed response (RFC 9113 8.1.1: a field the decoder
 * finds malformed, no `:status`, a request or unknown pseudo-header, a 101, trailers with a
 * pseudo-header or without END_STREAM) is a stream error, counted `h2-protocol`; the connection goes on,
 * as the decoder read the whole block. Also
 * the errors every frame handler uses: a connection error (GOAWAY, `h2-protocol`) and a stream error
 * (RST_STREAM, the connection goes on). h2/frames_in.ts, the layer above, handles the other frames.
 */
import {
  COMPRESSION_ERROR,
  ENHANCE_YOUR_CALM,
  errorCodeName,
  FLAG_END_HEADERS,
  FLAG_END_STREAM,
  FLAG_PADDED,
  FLAG_PRIORITY,
  FRAME_SIZE_ERROR,
  PROTOCOL_ERROR,
} from "../../../http2/frames.ts";
import { HPACK_BAD_FIELD, HPACK_BAD_STATUS, hpackErrorName } from "../../../http2/hpack_decoder.ts";
import { H2Streams } from "./streams.ts";
import { isInterim } from "../../../http1/body_framing.ts";
import type { H2Stream } from "./stream.ts";

/** A response's DATA against its content-length (RFC 9113 8.1.1), as constant texts. */
export const SHORT_OF_LENGTH = "a response ended short of its content-length";
export const PAST_LENGTH = "DATA beyond the response's content-length";
/**
 * CONTINUATION frames one header block may take (nghttp2's default), or as many as `maxHeaderBytes` needs
 * at the largest frame we allow: bytes alone do not bound a block, as empty CONTINUATION frames add none
 * and would keep a connection mid-block for ever (the 2024 CONTINUATION flood).
 */
const MIN_CONTINUATIONS = 8;
const MAX_FRAME_BYTES = 16_384;

export abstract class H2HeadersIn extends H2Streams {
  /** CONTINUATION frames of the header block being continued. */
  #continuations = 0;

  /** A connection error: GOAWAY with `code` (its name leads the message); false, so the caller stops. */
  protected frameError(code: number, message: string, nowMs: number): boolean {
    this.protocolError(code, `${errorCodeName(code)}: ${message}`, nowMs);
    return false;
  }

  /** A stream id the peer used that we never opened (idle) is a connection error. */
  protected idle(streamId: number): boolean {
    return (streamId & 1) === 0 || streamId >= this.nextStreamId;
  }

  /** A HEADERS frame: its block, or the first fragment of a block CONTINUATION frames go on with. */
  protected headers(
    buf: Uint8Array,
    at: number,
    length: number,
    flags: number,
    id: number,
    nowMs: number,
  ): boolean {
    if (id === 0) return this.frameError(PROTOCOL_ERROR, "HEADERS on stream 0", nowMs);
    const padded = (flags & FLAG_PADDED) !== 0;
    // The pad length octet and the 5 priority octets the flags announce (RFC 9113 4.2, 6.2).
    const fixed = (padded ? 1 : 0) + ((flags & FLAG_PRIORITY) !== 0 ? 5 : 0);
    if (length < fixed) return this.frameError(FRAME_SIZE_ERROR, "HEADERS too short for its flags", nowMs);
    const from = at + fixed;
    const to = at + length - (padded ? buf[at] : 0);
    if (from > to) return this.frameError(PROTOCOL_ERROR, "HEADERS padding longer than the frame", nowMs);
    const endStream = (flags & FLAG_END_STREAM) !== 0;
    if ((flags & FLAG_END_HEADERS) !== 0) return this.#headerBlock(buf, from, to, id, endStream, nowMs);
    this.continuing = id;
    this.continuingEndStream = endStream;
    this.headerBlockLength = 0;
    this.#continuations = 0;
    return this.#append(buf, from, to, nowMs);
  }

  protected continuation(
    buf: Uint8Array,
    at: number,
    length: number,
    flags: number,
    id: number,
    nowMs: number,
  ): boolean {
    if (this.continuing === 0 || id !== this.continuing) {
      return this.frameError(PROTOCOL_ERROR, "CONTINUATION without its HEADERS", nowMs);
    }
    const most = Math.max(MIN_CONTINUATIONS, Math.ceil(this.shared.maxHeaderBytes / MAX_FRAME_BYTES));
    if (++this.#continuations > most) {
      return this.frameError(
        ENHANCE_YOUR_CALM,
        `more than ${most} CONTINUATION frames in one header block (a CONTINUATION flood)`,
        nowMs,
      );
    }
    if (!this.#append(buf, at, at + length, nowMs)) return false;
    if ((flags & FLAG_END_HEADERS) === 0) return true;
    this.continuing = 0;
    return this.#headerBlock(
      this.headerBlock,
      0,
      this.headerBlockLength,
      id,
      this.continuingEndStream,
      nowMs,
    );
  }

  /** Appends a fragment of a continued header block; past `maxHeaderBytes` the connection ends. */
  #append(buf: Uint8Array, from: number, to: number, nowMs: number): boolean {
    const max = this.shared.maxHeaderBytes;
    if (this.headerBlockLength + (to - from) > max) {
      return this.frameError(
        PROTOCOL_ERROR,
        `a header block larger than ${max} bytes (--max-header-bytes)`,
        nowMs,
      );
    }
    if (this.headerBlock.length < max) this.headerBlock = new Uint8Array(max);
    this.headerBlock.set(buf.subarray(from, to), this.headerBlockLength);
    this.headerBlockLength += to - from;
    return true;
  }

  /** A complete header block: decoded (always, for HPACK's table), then the stream's status or end. */
  #headerBlock(
    block: Uint8Array,
    from: number,
    to: number,
    id: number,
    endStream: boolean,
    nowMs: number,
  ): boolean {
    const max = this.shared.maxHeaderBytes;
    if (to - from > max) {
      return this.frameError(
        PROTOCOL_ERROR,
        `a header block larger than ${max} bytes (--max-header-bytes)`,
        nowMs,
      );
    }
    const stream = this.streams.get(id);
    // A flow step that keeps the head gets its fields as they are decoded (the final head's only).
    const kept = stream?.kept ?? null;
    const onField = kept === null || kept.headDone ? undefined : kept.onField;
    const status = this.decoder.decodeStatus(block, from, to, onField);
    // A malformed field was decoded to the block's end (the table is in step): a stream error only.
    const malformed = status === HPACK_BAD_FIELD || status === HPACK_BAD_STATUS;
    if (status < 0 && !malformed) {
      return this.frameError(COMPRESSION_ERROR, `HPACK decoding failed: ${hpackErrorName(status)}`, nowMs);
    }
    if (stream === undefined) {
      return this.idle(id) ? this.frameError(PROTOCOL_ERROR, `HEADERS on idle stream ${id}`, nowMs) : true;
    }
    if (onField !== undefined) kept!.headEnded(status);
    const problem = malformed
      ? `a malformed response: ${hpackErrorName(status)}`
      : stream.status === 0
      ? this.#headProblem(status, endStream)
      : this.#trailersProblem(status, endStream);
    if (problem !== null) return this.streamError(stream, problem, nowMs);
    if (status !== 0 && !isInterim(status) && stream.status === 0) {
      stream.status = status;
      const unchecked = stream.request?.head === true || status === 204 || status === 304;
      stream.contentRemaining = unchecked ? -1 : this.decoder.contentLength;
    }
    if (endStream && stream.contentRemaining > 0) return this.streamError(stream, SHORT_OF_LENGTH, nowMs);
    if (endStream) this.endStream(stream, nowMs, null, "");
    return true;
  }

  /**
   * What makes a response head malformed (RFC 9113 8.1, 8.3.2), beside its fields: no `:status`, a
   * request or unknown pseudo-header, a 101 (HTTP/2 has no upgrade), an interim head ending the stream.
   * Constant texts: no string per response.
   */
  #headProblem(status: number, endStream: boolean): string | null {
    if (status === 0) return "a response without :status";
    if (this.decoder.otherPseudo) return "a request or unknown pseudo-header in a response";
    if (status === 101) return "a 101 response (HTTP/2 has no protocol upgrade)";
    if (isInterim(status) && endStream) return "an interim 1xx response ended the stream";
    return null;
  }

  /** A block after the final head is trailers: it ends the stream and has no pseudo-header (8.1). */
  #trailersProblem(status: number, endStream: boolean): string | null {
    if (!endStream) return "a header block after the final response without END_STREAM";
    if (status !== 0 || this.decoder.otherPseudo) return "a pseudo-header in trailers";
    return null;
  }

  /** The stream broke the protocol: RST_STREAM PROTOCOL_ERROR, counted; the connection goes on. */
  protected streamError(stream: H2Stream, message: string, nowMs: number): boolean {
    this.resetStream(stream.streamId, PROTOCOL_ERROR);
    this.endStream(stream, nowMs, "h2-protocol", message);
    return true;
  }
}
