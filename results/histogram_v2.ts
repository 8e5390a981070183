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
 * indexes. Anything else is left to the library (null). Every encoding a results file carries passes
 * through here before the library sees it, as the bound on indexes is also what keeps a corrupt one from
 * spinning the library's decoder (it walks every index up to the last count).
 */
import { inflateSync } from "node:zlib";

/** The V2 cookies with their word-size nibble masked out: the plain encoding, and the compressed wrapper. */
const V2_COOKIE = 0x1c849303;
const V2_COMPRESSED_COOKIE = 0x1c849304;
const WORD_SIZE_NIBBLE = 0xf0;
/** Bytes of the inner header before the counts. */
const V2_HEADER_BYTES = 40;
/** The most significant digits HdrHistogram allows. */
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

/**
 * The shape and nonzero counts of `encoded` (indexes rising), or null when it is not a V2 compressed
 * encoding of a shape HdrHistogram allows (the caller then decodes it with the library, whose errors name
 * what is wrong). Throws on counts cut short and on a count past any index a histogram of that shape has:
 * the library's decoder walks every index up to the last count, so such a run would spin it.
 */
export function readV2Counts(encoded: string): V2Counts | null {
  return readInto(encoded, []);
}

/** What `readV2Counts` reads, with the nonzero counts pushed to `counts`, or only checked when it is null. */
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

/**
 * How many indexes the library's histogram of this shape has at its largest range, up to 2^53 (the
 * integers a double holds; it sizes no histogram past them): sub-buckets of `2^(half + 1)` for `digits`
 * decimal digits, one bucket per doubling from their range, each adding `2^half` indexes.
 */
function indexCount(digits: number, lowestValue: number): number {
  const half = Math.max(Math.ceil(Math.log2(2 * 10 ** digits)) - 1, 0);
  const unitMagnitude = Math.floor(Math.log2(lowestValue));
  const buckets = Math.max(53 - unitMagnitude - half, 1);
  return (buckets + 1) * 2 ** half;
}

/**
 * Why `encoded` cannot be read as a histogram, or null when it can ("" is none, and reads). Results
 * files are checked with it as they are read (results/schema/values.ts), so a changed or damaged
 * encoding is named by its path there rather than failing, or hanging, whatever adds it later.
 */
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
 * The ZigZag LEB128 counts in `bytes[from, end)`, nonzero ones pushed to `out` as index-count pairs (a
 * check alone, half the time, when it is null). A count past `maxIndex` (a run of empty indexes no
 * histogram has) is corrupt input: it throws.
 */
function countsOf(
  bytes: Uint8Array,
  from: number,
  end: number,
  maxIndex: number,
  out: number[] | null,
): void {
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
