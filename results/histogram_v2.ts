/**
 * @module
 * Reads the counts of an HdrHistogram V2 compressed encoding (the form histograms cross isolates in,
 * results/histogram.ts) without building a histogram of their own. The library's decoder allocates a
 * full counts array (~90 KB for loadlab's shape) per encoding and reads it through Node buffers, and
 * its add then walks that whole array: 60-115 us an encoding warm, more cold, spent by the main isolate
 * on every worker sample during the load (on the core a pinned run shares with the generator) and on
 * every interval after a long run. The format: base64 of a big-endian header (cookie, length) and a
 * zlib stream; inside, a 40-byte header (cookie, payload length, index offset, significant digits,
 * lowest and highest trackable values, a ratio; the library reads neither the offset nor the ratio)
 * and the counts in index order as ZigZag LEB128 varints, a negative one skipping that many empty
 * indexes. Anything else is left to the library (null).
 */
import { inflateSync } from "node:zlib";

/** The V2 cookies with their word-size nibble masked out: the plain encoding, and the compressed wrapper. */
const V2_COOKIE = 0x1c849303;
const V2_COMPRESSED_COOKIE = 0x1c849304;
const WORD_SIZE_NIBBLE = 0xf0;
/** Bytes of the inner header before the counts. */
const V2_HEADER_BYTES = 40;
/** A varint's most bytes: eight of seven bits, then one of eight (64 bits). */
const VARINT_MAX_BYTES = 9;

const fromBase64 = (Uint8Array as unknown as { fromBase64(text: string): Uint8Array }).fromBase64;

/**
 * The nonzero counts of `encoded` as `[index, count, index, count, ...]` (indexes rising), or null when it
 * is not a V2 compressed encoding of the shape `significantDigits` and a lowest value of 1 (the
 * caller then decodes it with the library, whose errors name what is wrong). Throws on counts cut short
 * and on a count past `maxIndex`, the index of the largest value the caller's histogram can hold.
 */
export function readV2Counts(encoded: string, significantDigits: number, maxIndex: number): number[] | null {
  const inner = innerEncoding(encoded);
  if (inner === null || inner.length < V2_HEADER_BYTES) return null;
  const head = new DataView(inner.buffer, inner.byteOffset, inner.byteLength);
  if ((head.getInt32(0) & ~WORD_SIZE_NIBBLE) !== V2_COOKIE) return null;
  const payloadBytes = head.getInt32(4);
  // The digits asked for and a lowest trackable value of 1 (a 64-bit big-endian 1). The index offset
  // (at 8) and the ratio (at 32) are not read, as the library's decoder reads neither.
  if (head.getInt32(12) !== significantDigits || head.getInt32(16) !== 0 || head.getInt32(20) !== 1) {
    return null;
  }
  if (payloadBytes < 0 || V2_HEADER_BYTES + payloadBytes > inner.length) return null;
  return countsOf(inner, V2_HEADER_BYTES, V2_HEADER_BYTES + payloadBytes, maxIndex);
}

/** The inflated inner encoding, or null when `encoded` is not base64 of a V2 compressed wrapper. */
function innerEncoding(encoded: string): Uint8Array | null {
  let packed: Uint8Array;
  try {
    packed = fromBase64(encoded.trim());
  } catch {
    return null;
  }
  if (packed.length < 8) return null;
  const outer = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
  if ((outer.getInt32(0) & ~WORD_SIZE_NIBBLE) !== V2_COMPRESSED_COOKIE) return null;
  const length = outer.getInt32(4);
  if (length < 0 || 8 + length > packed.length) return null;
  try {
    return inflateSync(packed.subarray(8, 8 + length));
  } catch {
    return null;
  }
}

/**
 * The ZigZag LEB128 counts in `bytes[from, end)`, nonzero ones as index-count pairs. A count past `maxIndex`
 * (a run of empty indexes no histogram has) is corrupt input: it throws, where the library's decoder spun.
 */
function countsOf(bytes: Uint8Array, from: number, end: number, maxIndex: number): number[] {
  const out: number[] = [];
  let index = 0;
  let at = from;
  while (at < end) {
    // Plain arithmetic, not shifts: a count or a run may pass 2^31.
    let raw = 0;
    let scale = 1;
    let k = 0;
    while (true) {
      if (at >= end) throw new Error("histogram encoding: its counts end inside a number (truncated)");
      const b = bytes[at++];
      const last = k === VARINT_MAX_BYTES - 1;
      raw += (last ? b : b & 0x7f) * scale;
      if (last || (b & 0x80) === 0) break;
      scale *= 128;
      k++;
    }
    const value = raw % 2 === 0 ? raw / 2 : -(raw + 1) / 2;
    if (value < 0) index -= value;
    else {
      if (value > 0) {
        if (index > maxIndex) {
          throw new Error(
            `histogram encoding: a count at index ${index}, past any value a histogram holds (corrupt)`,
          );
        }
        out.push(index, value);
      }
      index++;
    }
  }
  return out;
}
