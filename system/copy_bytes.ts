/**
 * @module
 * The one byte-range copy of the hot paths (request templates, the HPACK table): short ranges go byte by
 * byte and the same buffer by `copyWithin`, because `dst.set(src.subarray(...))` makes a view object per
 * call, and on a per-request path those views were most of the garbage the engine made.
 */

/** Ranges up to this many bytes are copied by a loop: cheaper than calling `TypedArray.set`. */
const SHORT_COPY_BYTES = 32;

/**
 * Copies `src[from, from + length)` to `dst` at `at` (overlap allowed when both are one buffer); returns the
 * end.
 */
export function copyBytes(
  dst: Uint8Array,
  at: number,
  src: Uint8Array,
  from: number,
  length: number,
): number {
  if (src === dst) dst.copyWithin(at, from, from + length);
  else if (length <= SHORT_COPY_BYTES) { for (let k = 0; k < length; k++) dst[at + k] = src[from + k]; }
  else if (from === 0 && length === src.length) dst.set(src, at);
  else dst.set(src.subarray(from, from + length), at);
  return at + length;
}
