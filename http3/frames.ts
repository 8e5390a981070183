/**
 * @module
 * HTTP/3 framing (RFC 9114 6.2, 7, 8): frame and stream types, error codes, SETTINGS, and `H3FrameReader`,
 * which scans a stream's bytes split anywhere. Errors are negated H3_* codes, returned, never thrown.
 */
import { copyBytes } from "../system/copy_bytes.ts";
import { readVarint, VARINT_TRUNCATED, varintLengthAt, varintSize, writeVarint } from "./varint.ts";

export const FRAME_DATA = 0x0;
export const FRAME_HEADERS = 0x1;
const FRAME_CANCEL_PUSH = 0x3;
export const FRAME_SETTINGS = 0x4;
const FRAME_PUSH_PROMISE = 0x5;
export const FRAME_GOAWAY = 0x7;
const FRAME_MAX_PUSH_ID = 0xd;

/** Unidirectional stream types (RFC 9114 6.2, RFC 9204 4.2). */
export const STREAM_CONTROL = 0x0;
export const STREAM_QPACK_ENCODER = 0x2;
export const STREAM_QPACK_DECODER = 0x3;

// Error codes (RFC 9114 8.1, RFC 9204 6).
export const H3_NO_ERROR = 0x100;
export const H3_GENERAL_PROTOCOL_ERROR = 0x101;
export const H3_CLOSED_CRITICAL_STREAM = 0x104;
export const H3_FRAME_UNEXPECTED = 0x105;
export const H3_FRAME_ERROR = 0x106;
export const H3_EXCESSIVE_LOAD = 0x107;
export const H3_SETTINGS_ERROR = 0x109;
export const H3_MISSING_SETTINGS = 0x10a;
export const H3_MESSAGE_ERROR = 0x10e;
export const QPACK_DECOMPRESSION_FAILED = 0x200;
export const QPACK_ENCODER_STREAM_ERROR = 0x201;

const H3_NAMES =
  ("NO_ERROR GENERAL_PROTOCOL_ERROR INTERNAL_ERROR STREAM_CREATION_ERROR CLOSED_CRITICAL_STREAM " +
    "FRAME_UNEXPECTED FRAME_ERROR EXCESSIVE_LOAD ID_ERROR SETTINGS_ERROR MISSING_SETTINGS REQUEST_REJECTED " +
    "REQUEST_CANCELLED REQUEST_INCOMPLETE MESSAGE_ERROR CONNECT_ERROR VERSION_FALLBACK").split(" ");
const QPACK_NAMES = ["DECOMPRESSION_FAILED", "ENCODER_STREAM_ERROR", "DECODER_STREAM_ERROR"];

/** The name of an H3_* or QPACK_* code (either sign), or its hex for any other. */
export function h3ErrorName(code: number): string {
  const c = Math.abs(code);
  const name = H3_NAMES[c - 0x100] ?? QPACK_NAMES[c - 0x200];
  return name === undefined ? `0x${c.toString(16)}` : (c < 0x200 ? "H3_" : "QPACK_") + name;
}

export const SETTINGS_QPACK_MAX_TABLE_CAPACITY = 0x1;
export const SETTINGS_QPACK_BLOCKED_STREAMS = 0x7;

/**
 * Checks a peer's SETTINGS payload: 0, or -H3_SETTINGS_ERROR for a repeated id or one of HTTP/2's (RFC 9114
 * 7.2.4.1), -H3_FRAME_ERROR for a truncated pair. The values are not kept: our encoder uses no dynamic table,
 * and a server's field section limit is the server's to enforce.
 */
export function readSettings(buf: Uint8Array, off: number, len: number): number {
  const end = off + len;
  let seen = 0;
  for (let at = off; at < end;) {
    const id = readVarint(buf, at, end);
    if (id === VARINT_TRUNCATED) return -H3_FRAME_ERROR;
    at += varintLengthAt(buf[at]);
    if (at >= end) return -H3_FRAME_ERROR;
    if (readVarint(buf, at, end) === VARINT_TRUNCATED) return -H3_FRAME_ERROR;
    at += varintLengthAt(buf[at]);
    if (id >= 0x2 && id <= 0x5) return -H3_SETTINGS_ERROR;
    if (id < 32) {
      if (seen & (1 << id)) return -H3_SETTINGS_ERROR;
      seen |= 1 << id;
    }
  }
  return 0;
}

export function writeFrameHeader(buf: Uint8Array, at: number, type: number, length: number): number {
  return writeVarint(buf, writeVarint(buf, at, type), length);
}

export function writeSettings(buf: Uint8Array, at: number, pairs: readonly number[]): number {
  let len = 0;
  for (const v of pairs) len += varintSize(v);
  at = writeFrameHeader(buf, at, FRAME_SETTINGS, len);
  for (const v of pairs) at = writeVarint(buf, at, v);
  return at;
}

/** A control stream's first octets: its type, then SETTINGS with no dynamic QPACK table and no blocking. */
export const CONTROL_STREAM_PREFACE: Uint8Array = (() => {
  const buf = new Uint8Array(16);
  buf[0] = STREAM_CONTROL;
  return buf.subarray(
    0,
    writeSettings(buf, 1, [SETTINGS_QPACK_MAX_TABLE_CAPACITY, 0, SETTINGS_QPACK_BLOCKED_STREAMS, 0]),
  );
})();

/** A message's octets on its stream: a HEADERS frame of `section`, then one DATA frame of `body` if any. */
export function encodeMessage(section: Uint8Array, body: Uint8Array | null): Uint8Array {
  const bodyBytes = body?.length ?? 0;
  const out = new Uint8Array(section.length + bodyBytes + 32);
  let at = writeFrameHeader(out, 0, FRAME_HEADERS, section.length);
  out.set(section, at);
  at += section.length;
  if (bodyBytes > 0) {
    at = writeFrameHeader(out, at, FRAME_DATA, bodyBytes);
    out.set(body!, at);
    at += bodyBytes;
  }
  return out.subarray(0, at);
}

/** Writes GOAWAY, MAX_PUSH_ID or CANCEL_PUSH carrying `id`; returns the end. */
export function writeIdFrame(buf: Uint8Array, at: number, type: number, id: number): number {
  return writeVarint(buf, writeFrameHeader(buf, at, type, varintSize(id)), id);
}

/** `H3FrameReader.event`: the input was consumed and nothing completed. */
const READ_MORE = 0;
/** DATA payload octets at `input[dataOff, dataOff + dataLen)`. */
export const READ_DATA = 1;
/** A whole frame other than DATA: `type`, payload at `payload[payloadOff, payloadOff + payloadLen)`. */
export const READ_FRAME = 2;

const IN_HEAD = 0;
const IN_BODY = 1;
const IN_DATA = 2;
const IN_SKIP = 3;
/** The longest frame header: two 8-octet varints. */
const HEAD_BYTES = 16;

/**
 * Reads the frames of one stream from chunks split anywhere: the caller loops `at = reader.read(buf, at,
 * end)` while `at < end`, acting on `event`; a negative return is the negated H3_* code.
 */
export class H3FrameReader {
  event = READ_MORE;
  type = 0;
  payload: Uint8Array = new Uint8Array(0);
  payloadOff = 0;
  payloadLen = 0;
  dataOff = 0;
  dataLen = 0;
  private state = IN_HEAD;
  private readonly head = new Uint8Array(HEAD_BYTES);
  private headLen = 0;
  private remaining = 0;
  private own: Uint8Array = new Uint8Array(0);
  private ownLen = 0;
  private sawSettings = false;

  /** `maxFrameBytes` bounds every payload but DATA's (HEADERS, SETTINGS): larger is H3_EXCESSIVE_LOAD. */
  constructor(readonly control: boolean, readonly maxFrameBytes = 65536) {}

  read(buf: Uint8Array, at: number, end: number): number {
    this.event = READ_MORE;
    while (at < end) {
      const state = this.state;
      if (state === IN_HEAD) {
        at = this.readHead(buf, at, end);
        if (at < 0 || this.event !== READ_MORE) return at;
        continue;
      }
      const n = Math.min(end - at, this.remaining);
      this.remaining -= n;
      if (this.remaining === 0) this.state = IN_HEAD;
      if (state === IN_DATA) {
        this.dataOff = at;
        this.dataLen = n;
        this.event = READ_DATA;
        return at + n;
      }
      if (state === IN_BODY) this.ownLen = copyBytes(this.own, this.ownLen, buf, at, n);
      at += n;
      if (state === IN_BODY && this.remaining === 0) return this.whole(this.own, 0, this.ownLen, at);
    }
    return at;
  }

  reset(): void {
    this.state = IN_HEAD;
    this.headLen = 0;
    this.remaining = 0;
    this.ownLen = 0;
    this.sawSettings = false;
    this.event = READ_MORE;
  }

  get atFrameBoundary(): boolean {
    return this.state === IN_HEAD && this.headLen === 0;
  }

  private whole(payload: Uint8Array, off: number, len: number, at: number): number {
    this.payload = payload;
    this.payloadOff = off;
    this.payloadLen = len;
    this.event = READ_FRAME;
    return at;
  }

  /** Reads a frame header (in place when whole, else gathered in `head`) and starts its payload. */
  private readHead(buf: Uint8Array, at: number, end: number): number {
    let src = buf, from = at, to = end;
    if (this.headLen > 0 || !headComplete(buf, at, end)) {
      while (at < end && this.headLen < HEAD_BYTES && !headComplete(this.head, 0, this.headLen)) {
        this.head[this.headLen++] = buf[at++];
      }
      if (!headComplete(this.head, 0, this.headLen)) return at;
      src = this.head;
      from = 0;
      to = this.headLen;
      this.headLen = 0;
    }
    const type = readVarint(src, from, to);
    const lenAt = from + varintLengthAt(src[from]);
    const length = readVarint(src, lenAt, to);
    const headEnd = lenAt + varintLengthAt(src[lenAt]);
    if (src === buf) at = headEnd;
    const refused = this.refuse(type, length);
    if (refused < 0) return refused;
    this.type = type;
    this.remaining = length;
    if (type === FRAME_DATA || !known(type)) {
      this.state = length === 0 ? IN_HEAD : type === FRAME_DATA ? IN_DATA : IN_SKIP;
    } else if (end - at >= length) {
      return this.whole(buf, at, length, at + length);
    } else {
      if (this.own.length < length) {
        this.own = new Uint8Array(Math.max(length, Math.min(this.maxFrameBytes, 2 * this.own.length + 256)));
      }
      this.ownLen = 0;
      this.state = IN_BODY;
    }
    return at;
  }

  /** The error a frame of `type` and `length` is on this stream, or 0. */
  private refuse(type: number, length: number): number {
    // HTTP/2's frame types have no HTTP/3 meaning (RFC 9114 7.2.8).
    if (type === 0x2 || type === 0x6 || type === 0x8 || type === 0x9) return -H3_FRAME_UNEXPECTED;
    if (type !== FRAME_DATA && known(type) && length > this.maxFrameBytes) return -H3_EXCESSIVE_LOAD;
    if (this.control) {
      if (!this.sawSettings) {
        if (type !== FRAME_SETTINGS) return -H3_MISSING_SETTINGS;
        this.sawSettings = true;
        return 0;
      }
      const late = type === FRAME_SETTINGS || type === FRAME_DATA || type === FRAME_HEADERS ||
        type === FRAME_PUSH_PROMISE;
      return late ? -H3_FRAME_UNEXPECTED : 0;
    }
    const controlOnly = type === FRAME_SETTINGS || type === FRAME_GOAWAY || type === FRAME_MAX_PUSH_ID ||
      type === FRAME_CANCEL_PUSH;
    return controlOnly ? -H3_FRAME_UNEXPECTED : 0;
  }
}

function known(type: number): boolean {
  return type === FRAME_HEADERS || type === FRAME_SETTINGS || type === FRAME_GOAWAY ||
    type === FRAME_MAX_PUSH_ID || type === FRAME_CANCEL_PUSH || type === FRAME_PUSH_PROMISE;
}

function headComplete(buf: Uint8Array, at: number, end: number): boolean {
  if (at >= end) return false;
  const lenAt = at + varintLengthAt(buf[at]);
  return lenAt < end && lenAt + varintLengthAt(buf[lenAt]) <= end;
}
