/**
 * @module
 * QUIC variable-length integers (RFC 9000 16); past 2^53 (frame types to skip) precision is lost.
 */

/** Returned by `readVarint` when the integer runs past `end`. */
export const VARINT_TRUNCATED = -1;

/** The octets of the integer whose first octet is `first`. */
export function varintLengthAt(first: number): number {
  return 1 << (first >> 6);
}

/** The octets `value` takes in its shortest encoding. */
export function varintSize(value: number): number {
  return value < 0x40 ? 1 : value < 0x4000 ? 2 : value < 0x4000_0000 ? 4 : 8;
}

/** The integer at `buf[at]`, or VARINT_TRUNCATED when it does not end before `end`. */
export function readVarint(buf: Uint8Array, at: number, end: number): number {
  const first = buf[at];
  const len = 1 << (first >> 6);
  if (at + len > end) return VARINT_TRUNCATED;
  let value = first & 0x3f;
  for (let i = 1; i < len; i++) value = value * 256 + buf[at + i];
  return value;
}

/** Writes `value` (0 <= value < 2^62) in its shortest encoding at `at`; returns the end. */
export function writeVarint(buf: Uint8Array, at: number, value: number): number {
  const len = varintSize(value);
  let v = value;
  for (let i = len - 1; i > 0; i--) {
    buf[at + i] = v % 256;
    v = Math.floor(v / 256);
  }
  buf[at] = v | ((31 - Math.clz32(len)) << 6);
  return at + len;
}
