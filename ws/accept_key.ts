/**
 * @module
 * `Sec-WebSocket-Accept` for a key (RFC 6455 4.2.2), computed in reused bytes: no object per handshake.
 */

/** RFC 6455's fixed GUID appended to the key before hashing. */
const WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
/** 20 bytes of SHA-1 in base64, the last one `=`. */
export const ACCEPT_CHARS = 28;
const BASE64 = new TextEncoder().encode("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/");
/** Reused: one hash runs at a time. */
let block = new Uint8Array(128);
const W = new Int32Array(80);
const H = new Int32Array(5);
const ACCEPT = new Uint8Array(ACCEPT_CHARS);

/** The accept value `key` expects, as Latin-1 bytes, valid until the next call. */
export function acceptBytesOf(key: string): Uint8Array {
  const length = key.length + WS_GUID.length;
  const blocks = Math.ceil((length + 9) / 64);
  if (blocks * 64 > block.length) block = new Uint8Array(blocks * 64);
  block.fill(0, 0, blocks * 64);
  for (let i = 0; i < key.length; i++) block[i] = key.charCodeAt(i);
  for (let i = 0; i < WS_GUID.length; i++) block[key.length + i] = WS_GUID.charCodeAt(i);
  block[length] = 0x80;
  const bits = length * 8;
  const last = blocks * 64;
  block[last - 4] = bits >>> 24;
  block[last - 3] = bits >>> 16;
  block[last - 2] = bits >>> 8;
  block[last - 1] = bits;
  H[0] = 0x67452301;
  H[1] = 0xefcdab89 | 0;
  H[2] = 0x98badcfe | 0;
  H[3] = 0x10325476;
  H[4] = 0xc3d2e1f0 | 0;
  for (let at = 0; at < last; at += 64) compress(at);
  let to = 0;
  for (let i = 0; i < 18; i += 3, to += 4) {
    writeBase64(ACCEPT, to, (byteOf(i) << 16) | (byteOf(i + 1) << 8) | byteOf(i + 2));
  }
  writeBase64(ACCEPT, 24, (byteOf(18) << 16) | (byteOf(19) << 8));
  ACCEPT[27] = 61; // "="
  return ACCEPT;
}

/** Writes the four base64 characters of the 24-bit `word` at `out[to]`. */
export function writeBase64(out: Uint8Array, to: number, word: number): void {
  out[to] = BASE64[word >>> 18];
  out[to + 1] = BASE64[(word >>> 12) & 63];
  out[to + 2] = BASE64[(word >>> 6) & 63];
  out[to + 3] = BASE64[word & 63];
}

function byteOf(i: number): number {
  return (H[i >> 2] >>> (24 - 8 * (i & 3))) & 0xff;
}

/** One 64-byte block of the message at `at` folded into H. */
function compress(at: number): void {
  for (let t = 0; t < 16; t++) {
    const i = at + 4 * t;
    W[t] = (block[i] << 24) | (block[i + 1] << 16) | (block[i + 2] << 8) | block[i + 3];
  }
  for (let t = 16; t < 80; t++) {
    const x = W[t - 3] ^ W[t - 8] ^ W[t - 14] ^ W[t - 16];
    W[t] = (x << 1) | (x >>> 31);
  }
  let a = H[0], b = H[1], c = H[2], d = H[3], e = H[4];
  for (let t = 0; t < 80; t++) {
    const f = t < 20
      ? (b & c) | (~b & d)
      : t < 40
      ? b ^ c ^ d
      : t < 60
      ? (b & c) | (b & d) | (c & d)
      : b ^ c ^ d;
    const k = t < 20 ? 0x5a827999 : t < 40 ? 0x6ed9eba1 : t < 60 ? 0x8f1bbcdc : 0xca62c1d6;
    const next = (((a << 5) | (a >>> 27)) + f + e + k + W[t]) | 0;
    e = d;
    d = c;
    c = (b << 30) | (b >>> 2);
    b = a;
    a = next;
  }
  H[0] = (H[0] + a) | 0;
  H[1] = (H[1] + b) | 0;
  H[2] = (H[2] + c) | 0;
  H[3] = (H[3] + d) | 0;
  H[4] = (H[4] + e) | 0;
}
