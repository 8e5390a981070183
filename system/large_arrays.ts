/**
 * @module
 * What a spread does, for arrays of any length: `Math.max(...xs)`, `String.fromCharCode(...bytes)` and
 * `push(...xs)` pass each element as an argument on the stack and throw `RangeError: Maximum call stack
 * size exceeded` past about 100,000 of them (a run's intervals, a reflected schema's bytes). A leaf every
 * layer may use, as the rest of system/.
 */

/** The largest of `xs` (-Infinity for none), as `Math.max(...xs)`. */
export function maxOf(xs: ArrayLike<number>): number {
  let max = -Infinity;
  for (let k = 0; k < xs.length; k++) max = Math.max(max, xs[k]);
  return max;
}

/** The smallest of `xs` (Infinity for none), as `Math.min(...xs)`. */
export function minOf(xs: ArrayLike<number>): number {
  let min = Infinity;
  for (let k = 0; k < xs.length; k++) min = Math.min(min, xs[k]);
  return min;
}

/** Arguments per `String.fromCharCode` call: well under any engine's limit. */
const CHUNK = 8192;

/** `bytes[at, at + length)` as a string of their octets (one char each, Latin-1), as `fromCharCode(...)`. */
export function octetString(bytes: Uint8Array, at = 0, length = bytes.length - at): string {
  let s = "";
  for (let k = at, end = at + length; k < end; k += CHUNK) {
    s += String.fromCharCode.apply(null, bytes.subarray(k, Math.min(k + CHUNK, end)) as unknown as number[]);
  }
  return s;
}
