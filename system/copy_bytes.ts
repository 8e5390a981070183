/**
 * @module
 * Hot paths' byte-range copy (a loop for short ranges: `subarray` makes a view per call), and `concatBytes`.
 */

const SHORT_COPY_BYTES = 32;

/** Copies `src[from, from + length)` to `dst` at `at` (overlap allowed in one buffer); returns the end. */
export function copyBytes(dst: Uint8Array, at: number, src: Uint8Array, from: number, length: number) {
  if (src === dst) dst.copyWithin(at, from, from + length);
  else if (length <= SHORT_COPY_BYTES) { for (let k = 0; k < length; k++) dst[at + k] = src[from + k]; }
  else if (from === 0 && length === src.length) dst.set(src, at);
  else dst.set(src.subarray(from, from + length), at);
  return at + length;
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) (out.set(p, at), at += p.length);
  return out;
}
