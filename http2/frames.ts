/**
 * @module
 * HTTP/2 framing (RFC 9113 4, 6): frame types, flags, error codes and settings as numbers, the 9-byte
 * header read at an offset (no object per frame), control-frame writers, and SETTINGS checked per 6.5.2.
 */

/** The client connection preface (RFC 9113 3.4), sent before the first SETTINGS. */
export const CLIENT_PREFACE = new TextEncoder().encode("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");

export const FRAME_HEADER_BYTES = 9;

// Frame types (RFC 9113 6).
export const DATA = 0x0;
export const HEADERS = 0x1;
export const PRIORITY = 0x2;
export const RST_STREAM = 0x3;
export const SETTINGS = 0x4;
export const PUSH_PROMISE = 0x5;
export const PING = 0x6;
export const GOAWAY = 0x7;
export const WINDOW_UPDATE = 0x8;
export const CONTINUATION = 0x9;

export const FLAG_END_STREAM = 0x1;
export const FLAG_ACK = 0x1;
export const FLAG_END_HEADERS = 0x4;
export const FLAG_PADDED = 0x8;
export const FLAG_PRIORITY = 0x20;

// Error codes (RFC 9113 7).
export const NO_ERROR = 0x0;
export const PROTOCOL_ERROR = 0x1;
export const INTERNAL_ERROR = 0x2;
export const FLOW_CONTROL_ERROR = 0x3;
export const STREAM_CLOSED = 0x5;
export const FRAME_SIZE_ERROR = 0x6;
export const REFUSED_STREAM = 0x7;
export const CANCEL = 0x8;
export const COMPRESSION_ERROR = 0x9;
export const ENHANCE_YOUR_CALM = 0xb;
export const HTTP_1_1_REQUIRED = 0xd;

export const ERROR_NAMES: readonly string[] = ("NO_ERROR PROTOCOL_ERROR INTERNAL_ERROR FLOW_CONTROL_ERROR " +
  "SETTINGS_TIMEOUT STREAM_CLOSED FRAME_SIZE_ERROR REFUSED_STREAM CANCEL COMPRESSION_ERROR CONNECT_ERROR " +
  "ENHANCE_YOUR_CALM INADEQUATE_SECURITY HTTP_1_1_REQUIRED").split(" ");

/** `0x1` -> `PROTOCOL_ERROR`; unknown codes as hex (RFC 9113 7: not an error). */
export function errorCodeName(code: number): string {
  return ERROR_NAMES[code] ?? `0x${code.toString(16)}`;
}

// Settings identifiers (RFC 9113 6.5.2).
export const SETTINGS_ENABLE_PUSH = 0x2;
export const SETTINGS_MAX_CONCURRENT_STREAMS = 0x3;
export const SETTINGS_INITIAL_WINDOW_SIZE = 0x4;
export const SETTINGS_MAX_FRAME_SIZE = 0x5;
export const SETTINGS_MAX_HEADER_LIST_SIZE = 0x6;

/** Defaults before a peer's SETTINGS arrive (RFC 9113 6.5.2). */
export const DEFAULT_WINDOW_BYTES = 65_535;
export const DEFAULT_MAX_FRAME_BYTES = 16_384;
const MAX_FRAME_BYTES_LIMIT = 16_777_215;
export const MAX_WINDOW_BYTES = 0x7fff_ffff;
export const MAX_STREAM_ID = 0x7fff_ffff;

export function frameLength(buf: Uint8Array, at: number): number {
  return (buf[at] << 16) | (buf[at + 1] << 8) | buf[at + 2];
}

export function frameType(buf: Uint8Array, at: number): number {
  return buf[at + 3];
}

export function frameFlags(buf: Uint8Array, at: number): number {
  return buf[at + 4];
}

/** The reserved bit dropped. */
export function frameStreamId(buf: Uint8Array, at: number): number {
  return readUint31(buf, at + 5);
}

/** A 31-bit big-endian value (stream ids, window increments: the top bit is reserved). */
export function readUint31(buf: Uint8Array, at: number): number {
  return ((buf[at] & 0x7f) * 0x100_0000) + ((buf[at + 1] << 16) | (buf[at + 2] << 8) | buf[at + 3]);
}

export function readUint32(buf: Uint8Array, at: number): number {
  return buf[at] * 0x100_0000 + ((buf[at + 1] << 16) | (buf[at + 2] << 8) | buf[at + 3]);
}

/** The top bit kept: callers mask a stream id themselves. */
export function writeUint32(buf: Uint8Array, at: number, value: number): void {
  buf[at] = (value >>> 24) & 0xff;
  buf[at + 1] = (value >>> 16) & 0xff;
  buf[at + 2] = (value >>> 8) & 0xff;
  buf[at + 3] = value & 0xff;
}

export function writeFrameHeader(
  buf: Uint8Array,
  at: number,
  length: number,
  type: number,
  flags: number,
  streamId: number,
): number {
  buf[at] = (length >>> 16) & 0xff;
  buf[at + 1] = (length >>> 8) & 0xff;
  buf[at + 2] = length & 0xff;
  buf[at + 3] = type;
  buf[at + 4] = flags;
  writeUint32(buf, at + 5, streamId & MAX_STREAM_ID);
  return at + FRAME_HEADER_BYTES;
}

export function settingsFrameBytes(count: number): number {
  return FRAME_HEADER_BYTES + 6 * count;
}

export function writeSettings(buf: Uint8Array, at: number, settings: readonly (readonly [number, number])[]) {
  let p = writeFrameHeader(buf, at, 6 * settings.length, SETTINGS, 0, 0);
  for (const [id, value] of settings) {
    buf[p] = (id >>> 8) & 0xff;
    buf[p + 1] = id & 0xff;
    writeUint32(buf, p + 2, value);
    p += 6;
  }
  return p;
}

export function writeSettingsAck(buf: Uint8Array, at: number): number {
  return writeFrameHeader(buf, at, 0, SETTINGS, FLAG_ACK, 0);
}

export const WINDOW_UPDATE_BYTES = FRAME_HEADER_BYTES + 4;

/** Writes a WINDOW_UPDATE of `increment` (1 .. 2^31-1) for `streamId` (0: the connection). */
export function writeWindowUpdate(buf: Uint8Array, at: number, streamId: number, increment: number): number {
  const p = writeFrameHeader(buf, at, 4, WINDOW_UPDATE, 0, streamId);
  writeUint32(buf, p, increment & MAX_WINDOW_BYTES);
  return p + 4;
}

export const PING_BYTES = FRAME_HEADER_BYTES + 8;

/** Writes a PING (or its ACK) carrying the 8 bytes at `data[dataAt, dataAt + 8)`. */
export function writePing(buf: Uint8Array, at: number, ack: boolean, data: Uint8Array, dataAt: number) {
  const p = writeFrameHeader(buf, at, 8, PING, ack ? FLAG_ACK : 0, 0);
  for (let k = 0; k < 8; k++) buf[p + k] = data[dataAt + k];
  return p + 8;
}

export const RST_STREAM_BYTES = FRAME_HEADER_BYTES + 4;

export function writeRstStream(buf: Uint8Array, at: number, streamId: number, errorCode: number): number {
  const p = writeFrameHeader(buf, at, 4, RST_STREAM, 0, streamId);
  writeUint32(buf, p, errorCode);
  return p + 4;
}

export const GOAWAY_BYTES = FRAME_HEADER_BYTES + 8;

export function writeGoaway(buf: Uint8Array, at: number, lastStreamId: number, errorCode: number): number {
  const p = writeFrameHeader(buf, at, 8, GOAWAY, 0, 0);
  writeUint32(buf, p, lastStreamId & MAX_STREAM_ID);
  writeUint32(buf, p + 4, errorCode);
  return p + 8;
}

/** A peer's settings a client acts on (not its HPACK table or header list size), from the RFC's defaults. */
export class PeerSettings {
  /** Infinity until the peer sets a limit. */
  maxConcurrentStreams = Infinity;
  initialWindowBytes = DEFAULT_WINDOW_BYTES;
  maxFrameBytes = DEFAULT_MAX_FRAME_BYTES;
}

/** Applies server SETTINGS to `into` in order (RFC 9113 6.5.3): null, or the problem (`into` partly set). */
export function applySettings(
  buf: Uint8Array,
  from: number,
  to: number,
  into: PeerSettings,
): { errorCode: number; message: string } | null {
  if ((to - from) % 6 !== 0) {
    return {
      errorCode: FRAME_SIZE_ERROR,
      message: `SETTINGS payload of ${to - from} bytes (not 6 per setting)`,
    };
  }
  for (let p = from; p < to; p += 6) {
    const id = (buf[p] << 8) | buf[p + 1];
    const value = readUint32(buf, p + 2);
    switch (id) {
      case SETTINGS_ENABLE_PUSH:
        if (value !== 0) {
          return { errorCode: PROTOCOL_ERROR, message: `SETTINGS_ENABLE_PUSH ${value}` };
        }
        break;
      case SETTINGS_MAX_CONCURRENT_STREAMS:
        into.maxConcurrentStreams = value;
        break;
      case SETTINGS_INITIAL_WINDOW_SIZE:
        if (value > MAX_WINDOW_BYTES) {
          return { errorCode: FLOW_CONTROL_ERROR, message: `SETTINGS_INITIAL_WINDOW_SIZE ${value}` };
        }
        into.initialWindowBytes = value;
        break;
      case SETTINGS_MAX_FRAME_SIZE:
        if (value < DEFAULT_MAX_FRAME_BYTES || value > MAX_FRAME_BYTES_LIMIT) {
          return { errorCode: PROTOCOL_ERROR, message: `SETTINGS_MAX_FRAME_SIZE ${value}` };
        }
        into.maxFrameBytes = value;
        break;
    }
  }
  return null;
}
