/**
 * @module
 * Reads the counts of an HdrHistogram V2 compressed encoding without the library's 90 KB decoder
 * (the main isolate reads one per worker sample); the bound on indexes also stops a corrupt encoding.
 */
import { inflateSync } from "node:zlib";

/** The V2 cookies with their word-size nibble masked out: the plain encoding, and the compressed wrapper. */
const V2_COOKIE = 0x1c849303;
const V2_COMPRESSED_COOKIE = 0x1c849304;
const WORD_SIZE_NIBBLE = 0xf0;
const V2_HEADER_BYTES = 40;
const MAX_DIGITS = 5;
/** A varint's most bytes: eight of seven bits, then one of eight (64 bits). */
const VARINT_MAX_BYTES = 9;

const fromBase64 = (Uint8Array as unknown as { fromBase64(text: string): Uint8Array }).fromBase64;

/** What a V2 compressed encoding holds: its shape, and its nonzero counts as `[index, count, ...]`. */
export interface V2Counts {
  significantDigits: number;
  lowestValue: number;
  counts: number[];
}

/** `encoded`'s shape and nonzero counts, or null if not V2; throws on counts that would spin the library. */
export function readV2Counts(encoded: string): V2Counts | null {
  return readInto(encoded, []);
}

function readInto(encoded: string, counts: number[] | null): V2Counts | null {
  const inner = innerEncoding(encoded);
  if (inner === null || inner.length < V2_HEADER_BYTES) return null;
  const head = new DataView(inner.buffer, inner.byteOffset, inner.byteLength);
  if ((head.getInt32(0) & ~WORD_SIZE_NIBBLE) !== V2_COOKIE) return null;
  const payloadBytes = head.getInt32(4);
  // The index offset (at 8) and the ratio (at 32) are not read, as the library's decoder reads neither.
  const significantDigits = head.getInt32(12);
  const lowestValue = Number(head.getBigInt64(16));
  if (significantDigits < 0 || significantDigits > MAX_DIGITS || !(lowestValue >= 1)) return null;
  if (payloadBytes < 0 || V2_HEADER_BYTES + payloadBytes > inner.length) return null;
  const maxIndex = indexCount(significantDigits, lowestValue) - 1;
  countsOf(inner, V2_HEADER_BYTES, V2_HEADER_BYTES + payloadBytes, maxIndex, counts);
  return { significantDigits, lowestValue, counts: counts ?? [] };
}

/** How many indexes a histogram of this shape has at its largest range (up to 2^53). */
function indexCount(digits: number, lowestValue: number): number {
  const half = Math.max(Math.ceil(Math.log2(2 * 10 ** digits)) - 1, 0);
  const unitMagnitude = Math.floor(Math.log2(lowestValue));
  const buckets = Math.max(53 - unitMagnitude - half, 1);
  return (buckets + 1) * 2 ** half;
}

/** Why `encoded` cannot be read as a histogram, or null (results files are checked with it as read). */
export function encodingProblem(encoded: string): string | null {
  if (encoded === "") return null;
  try {
    if (readInto(encoded, null) !== null) return null;
  } catch (e) {
    return `${(e as Error).message}; restore the file loadlab wrote, or remove this histogram`;
  }
  return "not a compressed HdrHistogram V2 encoding (base64) of a shape HdrHistogram allows, as loadlab " +
    "writes; restore the file loadlab wrote, or remove this histogram";
}

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

/** The ZigZag LEB128 counts in `bytes[from, end)` as index-count pairs; throws past `maxIndex`. */
function countsOf(bytes: Uint8Array, from: number, end: number, maxIndex: number, out: number[] | null) {
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
        out?.push(index, value);
      }
      index++;
    }
  }
}
