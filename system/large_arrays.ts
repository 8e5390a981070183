/**
 * @module
 * Spread-free max, min and fromCharCode for any length (a spread throws past ~100,000); `grown`.
 */

export function maxOf(xs: ArrayLike<number>): number {
  let max = -Infinity;
  for (let k = 0; k < xs.length; k++) max = Math.max(max, xs[k]);
  return max;
}

export function minOf(xs: ArrayLike<number>): number {
  let min = Infinity;
  for (let k = 0; k < xs.length; k++) min = Math.min(min, xs[k]);
  return min;
}

/** `to` (the larger array) holding `from` at its start. */
export function grown<T extends Uint8Array | Uint32Array | Float64Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

const CHUNK = 8192;

/** `bytes[at, at + length)` as a string of their octets (one char each, Latin-1), as `fromCharCode(...)`. */
export function octetString(bytes: Uint8Array, at = 0, length = bytes.length - at): string {
  let s = "";
  for (let k = at, end = at + length; k < end; k += CHUNK) {
    s += String.fromCharCode.apply(null, bytes.subarray(k, Math.min(k + CHUNK, end)) as unknown as number[]);
  }
  return s;
}
