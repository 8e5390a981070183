/**
 * @module
 * Protobuf's wire forms of scalars written into a caller's buffer (varint of a 64-bit value as two 32-bit
 * halves, fixed widths, ZigZag), and proto3 JSON's text forms read from bytes, allocating nothing for most.
 */
import { decimalAt } from "../http1/chars.ts";

/** ZigZag: 0, -1, 1, -2 ... as 0, 1, 2, 3 ...; a bigint only past 2^52. */
export function zigzag(n: number | bigint): number | bigint {
  if (typeof n === "number" && Math.abs(n) <= 2 ** 52) return n >= 0 ? 2 * n : -2 * n - 1;
  const b = BigInt(n);
  return b >= 0n ? b * 2n : b * -2n - 1n;
}

const decoder = new TextDecoder();

/** A decimal integer; a bigint past 15 digits; null for anything else. */
export function integerOf(buf: Uint8Array, from: number, to: number): number | bigint | null {
  const negative = buf[from] === 45;
  const start = negative ? from + 1 : from;
  const n = decimalAt(buf, start, to);
  if (n < 0) return null;
  if (to - start > 15) return BigInt(decoder.decode(buf.subarray(from, to)));
  return negative ? -n : n;
}

/** A number in proto3 JSON's text (`NaN`, `Infinity` too); null when not one. */
export function floatOf(buf: Uint8Array, from: number, to: number): number | null {
  if (from === to) return null;
  const text = decoder.decode(buf.subarray(from, to));
  if (text === "NaN") return NaN;
  const n = Number(text);
  return Number.isNaN(n) || /^\s|\s$|^0[xob]/i.test(text) ? null : n;
}

/** A varint of the 64-bit value `hi:lo` (each unsigned 32 bits) at `at`; returns the end. */
export function writeVarint(buf: Uint8Array, at: number, lo: number, hi: number): number {
  while (hi !== 0 || lo > 127) {
    buf[at++] = (lo & 0x7f) | 0x80;
    lo = ((lo >>> 7) | (hi << 25)) >>> 0;
    hi >>>= 7;
  }
  buf[at] = lo;
  return at + 1;
}

export function writeLittle(buf: Uint8Array, at: number, n: number, bytes: number): number {
  for (let k = 0; k < bytes; k++) buf[at + k] = (n >>> (8 * k)) & 0xff;
  return at + bytes;
}

/** Standard and URL-safe alphabets; 255: not one. */
const BASE64 = new Uint8Array(256).fill(255);
for (const [k, c] of [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"].entries()) {
  BASE64[c.charCodeAt(0)] = k;
}
BASE64[45] = 62;
BASE64[95] = 63;

/** Decodes the base64 text `buf[from, to)` in place (padding optional); returns its end, or -1. */
export function decodeBase64(buf: Uint8Array, from: number, to: number): number {
  while (to > from && buf[to - 1] === 61) to--;
  if ((to - from) % 4 === 1) return -1;
  let out = from, acc = 0, bits = 0;
  for (let k = from; k < to; k++) {
    const v = BASE64[buf[k]];
    if (v === 255) return -1;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      buf[out++] = (acc >>> bits) & 0xff;
    }
  }
  return out;
}

const FLOAT_BYTES = new Uint8Array(8);
const FLOAT_VIEW = new DataView(FLOAT_BYTES.buffer);

/** `n` as a little-endian float of `bytes` (4 or 8) at `at`; returns the end. */
export function writeFloat(buf: Uint8Array, at: number, n: number, bytes: 4 | 8): number {
  if (bytes === 4) FLOAT_VIEW.setFloat32(0, n, true);
  else FLOAT_VIEW.setFloat64(0, n, true);
  for (let k = 0; k < bytes; k++) buf[at + k] = FLOAT_BYTES[k];
  return at + bytes;
}
