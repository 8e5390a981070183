/**
 * @module
 * The response heads an HTTP/2 connection receives (RFC 9113 4.3, 6.2, 6.10), always decoded by the HPACK
 * decoder (its table must see every block). A malformed response (8.1.1) is a stream error.
 */
import {
  COMPRESSION_ERROR,
  ENHANCE_YOUR_CALM,
  FLAG_END_HEADERS,
  FLAG_END_STREAM,
  FLAG_PADDED,
  FLAG_PRIORITY,
  FRAME_SIZE_ERROR,
  PROTOCOL_ERROR,
} from "../../../http2/frames.ts";
import { HPACK_BAD_FIELD, HPACK_BAD_STATUS, hpackErrorName } from "../../../http2/hpack/decoder.ts";
import { isInterim } from "../../../http1/body_framing.ts";
import type { ConnectionShared } from "../load_connection.ts";
import type { StreamTable } from "./stream_table.ts";
import type { H2Core, H2Stream } from "./stream.ts";

/** A response's DATA against its content-length (RFC 9113 8.1.1), as constant texts. */
export const SHORT_OF_LENGTH = "a response ended short of its content-length";
export const PAST_LENGTH = "DATA beyond the response's content-length";
/** CONTINUATION frames one block may take at least: empty ones would keep a connection mid-block for ever. */
const MIN_CONTINUATIONS = 8;
const MAX_FRAME_BYTES = 16_384;

export class HeaderBlocks {
  /** A block continued by CONTINUATION frames, at most `maxHeaderBytes`; made on the first such block. */
  headerBlock: Uint8Array = EMPTY;
  headerBlockLength = 0;
  /** Stream of the header block being continued (0: none), and whether its HEADERS ended the stream. */
  continuing = 0;
  continuingEndStream = false;
  #continuations = 0;
  readonly #core: H2Core;
  readonly #shared: ConnectionShared;
  readonly #streams: StreamTable;
  readonly #byId: Map<number, H2Stream>;

  constructor(core: H2Core, streams: StreamTable) {
    this.#core = core;
    this.#shared = core.shared;
    this.#streams = streams;
    this.#byId = streams.byId;
  }

  reset(): void {
    this.continuing = 0;
  }

  /** A HEADERS frame: its block, or the first fragment of a block CONTINUATION frames go on with. */
  headers(buf: Uint8Array, at: number, length: number, flags: number, id: number, nowMs: number): boolean {
    const core = this.#core;
    if (id === 0) return core.frameError(PROTOCOL_ERROR, "HEADERS on stream 0", nowMs);
    const padded = (flags & FLAG_PADDED) !== 0;
    // The pad length octet and the 5 priority octets the flags announce (RFC 9113 4.2, 6.2).
    const fixed = (padded ? 1 : 0) + ((flags & FLAG_PRIORITY) !== 0 ? 5 : 0);
    if (length < fixed) return core.frameError(FRAME_SIZE_ERROR, "HEADERS too short for its flags", nowMs);
    const from = at + fixed;
    const to = at + length - (padded ? buf[at] : 0);
    if (from > to) return core.frameError(PROTOCOL_ERROR, "HEADERS padding longer than the frame", nowMs);
    const endStream = (flags & FLAG_END_STREAM) !== 0;
    if ((flags & FLAG_END_HEADERS) !== 0) return this.#headerBlock(buf, from, to, id, endStream, nowMs);
    this.continuing = id;
    this.continuingEndStream = endStream;
    this.headerBlockLength = 0;
    this.#continuations = 0;
    return this.#append(buf, from, to, nowMs);
  }

  continuation(
    buf: Uint8Array,
    at: number,
    length: number,
    flags: number,
    id: number,
    nowMs: number,
  ): boolean {
    if (this.continuing === 0 || id !== this.continuing) {
      return this.#core.frameError(PROTOCOL_ERROR, "CONTINUATION without its HEADERS", nowMs);
    }
    const most = Math.max(MIN_CONTINUATIONS, Math.ceil(this.#shared.maxHeaderBytes / MAX_FRAME_BYTES));
    if (++this.#continuations > most) {
      return this.#core.frameError(
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
    const max = this.#shared.maxHeaderBytes;
    if (this.headerBlockLength + (to - from) > max) return this.#tooLarge(nowMs);
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
    const core = this.#core;
    if (to - from > this.#shared.maxHeaderBytes) return this.#tooLarge(nowMs);
    const streams = this.#streams;
    const decoder = core.decoder;
    const stream = this.#byId.get(id);
    // A step that keeps the head gets the final head's fields; a gRPC answer every block's.
    const kept = stream?.kept ?? null;
    const keepsHead = kept !== null && !kept.headDone;
    const answerFields = stream?.answer?.fields;
    const onField = !keepsHead
      ? answerFields
      : answerFields === undefined
      ? kept.onField
      : kept.teeTo(answerFields);
    const status = decoder.decodeStatus(block, from, to, onField);
    // A malformed field was decoded to the block's end (the table is in step): a stream error only.
    const malformed = status === HPACK_BAD_FIELD || status === HPACK_BAD_STATUS;
    if (status < 0 && !malformed) {
      return core.frameError(COMPRESSION_ERROR, `HPACK decoding failed: ${hpackErrorName(status)}`, nowMs);
    }
    if (stream === undefined) {
      return streams.idle(id) ? core.frameError(PROTOCOL_ERROR, `HEADERS on idle stream ${id}`, nowMs) : true;
    }
    if (keepsHead) kept.headEnded(status);
    const problem = malformed
      ? `a malformed response: ${hpackErrorName(status)}`
      : stream.status === 0
      ? this.#headProblem(status, endStream)
      : this.#trailersProblem(status, endStream);
    if (problem !== null) return streams.streamError(stream, problem, nowMs);
    if (status !== 0 && !isInterim(status) && stream.status === 0) {
      stream.status = status;
      const unchecked = stream.request?.head === true || status === 204 || status === 304;
      stream.contentRemaining = unchecked ? -1 : decoder.contentLength;
      const kind = stream.answer?.head(status, endStream) ?? null;
      if (kind !== null) return streams.answerFailed(stream, kind, nowMs, !endStream);
    }
    if (endStream && stream.contentRemaining > 0) return streams.streamError(stream, SHORT_OF_LENGTH, nowMs);
    if (endStream) streams.endAnswer(stream, nowMs, true);
    return true;
  }

  #tooLarge(nowMs: number): boolean {
    const max = this.#shared.maxHeaderBytes;
    return this.#core.frameError(
      PROTOCOL_ERROR,
      `a header block larger than ${max} bytes (--max-header-bytes)`,
      nowMs,
    );
  }

  /** What makes a response head malformed (RFC 9113 8.1, 8.3.2) beside its fields; constant texts. */
  #headProblem(status: number, endStream: boolean): string | null {
    if (status === 0) return "a response without :status";
    if (this.#core.decoder.otherPseudo) return "a request or unknown pseudo-header in a response";
    if (status === 101) return "a 101 response (HTTP/2 has no protocol upgrade)";
    if (isInterim(status) && endStream) return "an interim 1xx response ended the stream";
    return null;
  }

  /** A block after the final head is trailers: it ends the stream and has no pseudo-header (8.1). */
  #trailersProblem(status: number, endStream: boolean): string | null {
    if (!endStream) return "a header block after the final response without END_STREAM";
    if (status !== 0 || this.#core.decoder.otherPseudo) return "a pseudo-header in trailers";
    return null;
  }
}

const EMPTY = new Uint8Array(0);
