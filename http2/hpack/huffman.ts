/**
 * @module
 * HPACK's Huffman code (RFC 7541 Appendix B) and its allocation-free decoder; EOS or bad padding fails (5.2).
 */

/** Bit lengths of symbols 0..256 (256 is EOS), in symbol order, from the RFC's table. */
// deno-fmt-ignore
const LENGTHS: readonly number[] = [
  13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28,
  28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28,
  6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6,
  5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10,
  13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
  7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6,
  15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5,
  6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28,
  20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23,
  24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24,
  22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23,
  21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23,
  26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25,
  19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27,
  20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23,
  26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26,
  30,
];

const HUFFMAN_EOS = 256;
const HUFFMAN_ERROR = -1;
const MAX_BITS = 30;
const PEEK_MASK = 0x3fffffff;

/** Per code length: the first code, one past the last, and where its symbols start in `SORTED`. */
const FIRST = new Int32Array(MAX_BITS + 1);
const LIMIT = new Int32Array(MAX_BITS + 1);
const OFFSET = new Int32Array(MAX_BITS + 1);
/** The symbols ordered by (length, symbol), as the canonical code assigns them. */
const SORTED = new Uint16Array(257);
/** Codes of up to 8 bits by their first 8 bits (padded with any bits): symbol | length << 9, 0 if none. */
const FAST = new Uint32Array(256);
export const HUFFMAN_CODES = new Uint32Array(257);
export const HUFFMAN_LENGTHS = Uint8Array.from(LENGTHS);

function buildTables(): void {
  let code = 0;
  let next = 0;
  for (let len = 1; len <= MAX_BITS; len++) {
    FIRST[len] = code;
    OFFSET[len] = next;
    for (let sym = 0; sym <= 256; sym++) {
      if (LENGTHS[sym] !== len) continue;
      HUFFMAN_CODES[sym] = code++;
      SORTED[next++] = sym;
    }
    LIMIT[len] = code;
    code <<= 1;
  }
  for (let sym = 0; sym <= 256; sym++) {
    const len = LENGTHS[sym];
    if (len > 8) continue;
    const base = HUFFMAN_CODES[sym] << (8 - len);
    for (let fill = 0; fill < 1 << (8 - len); fill++) FAST[base | fill] = sym | (len << 9);
  }
}
buildTables();

/** Decodes `src[start..end)` into `out` (room for `(end - start) * 8 / 5`); the end or HUFFMAN_ERROR. */
export function huffmanDecode(
  src: Uint8Array,
  start: number,
  end: number,
  out: Uint8Array,
  outStart: number,
): number {
  let acc = 0; // the unread bits, in the low `bits` bits
  let bits = 0;
  let at = start;
  let o = outStart;
  for (;;) {
    // Up to 32 bits in `acc`: fewer than 25 only at the end of the input.
    while (bits <= 24 && at < end) {
      acc = ((acc << 8) | src[at++]) >>> 0;
      bits += 8;
    }
    if (bits === 0) return o;
    let peek = bits >= MAX_BITS
      ? (acc >>> (bits - MAX_BITS)) & PEEK_MASK
      : (acc << (MAX_BITS - bits)) & PEEK_MASK;
    // A code may be longer than the 25-29 bits held: the next octet's leading bits complete the peek.
    if (bits < MAX_BITS && at < end) peek |= src[at] >>> (8 - (MAX_BITS - bits));
    let sym: number;
    let len: number;
    const fast = FAST[peek >>> 22];
    if (fast !== 0) {
      sym = fast & 0x1ff;
      len = fast >>> 9;
    } else {
      len = 9;
      while (len < MAX_BITS && peek >>> (MAX_BITS - len) >= LIMIT[len]) len++;
      sym = SORTED[OFFSET[len] + (peek >>> (MAX_BITS - len)) - FIRST[len]];
    }
    if (sym === HUFFMAN_EOS) return HUFFMAN_ERROR;
    if (len > bits) {
      // The rest is padding: at most 7 bits, all ones (a prefix of EOS).
      if (at === end) return bits <= 7 && acc === (1 << bits) - 1 ? o : HUFFMAN_ERROR;
      // The code ends inside the next octet; what is left of it is that octet's last bits.
      out[o++] = sym;
      bits += 8 - len;
      acc = src[at++] & ((1 << bits) - 1);
      continue;
    }
    out[o++] = sym;
    bits -= len;
    acc = bits === 0 ? 0 : (acc & (0xffffffff >>> (32 - bits))) >>> 0;
  }
}

const CACHE_SLOTS = 64;
const CACHE_MAX_BYTES = 48;
/** Decoded bytes per slot: the shortest code is 5 bits, so 48 encoded octets decode to at most 76. */
const CACHE_OUT_BYTES = Math.ceil((CACHE_MAX_BYTES * 8) / 5);
const cacheIn = new Uint8Array(CACHE_SLOTS * CACHE_MAX_BYTES);
const cacheOut = new Uint8Array(CACHE_SLOTS * CACHE_OUT_BYTES);
const cacheInLen = new Int32Array(CACHE_SLOTS);
const cacheOutLen = new Int32Array(CACHE_SLOTS);

/** `huffmanDecode` with a small per-isolate cache: servers resend the same strings; clean decodes only. */
export function huffmanDecodeCached(
  src: Uint8Array,
  start: number,
  end: number,
  out: Uint8Array,
  outStart: number,
): number {
  const len = end - start;
  if (len === 0 || len > CACHE_MAX_BYTES) return huffmanDecode(src, start, end, out, outStart);
  const slot = (len * 31 + src[start] * 7 + src[end - 1] * 3 + src[start + (len >> 1)]) & (CACHE_SLOTS - 1);
  const inAt = slot * CACHE_MAX_BYTES;
  const outAt = slot * CACHE_OUT_BYTES;
  if (cacheInLen[slot] === len) {
    let same = 0;
    while (same < len && cacheIn[inAt + same] === src[start + same]) same++;
    if (same === len) {
      const n = cacheOutLen[slot];
      for (let k = 0; k < n; k++) out[outStart + k] = cacheOut[outAt + k];
      return outStart + n;
    }
  }
  const to = huffmanDecode(src, start, end, out, outStart);
  if (to < 0) return to;
  for (let k = 0; k < len; k++) cacheIn[inAt + k] = src[start + k];
  for (let k = outStart; k < to; k++) cacheOut[outAt + k - outStart] = out[k];
  cacheInLen[slot] = len;
  cacheOutLen[slot] = to - outStart;
  return to;
}
