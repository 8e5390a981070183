/**
 * @module
 * HTTP/1.1 byte classes (RFC 9110 5.6.2 tchar, 5.5 field value) and the framing's names and list words,
 * pre-encoded so matching them is a byte comparison; the byte comparisons every protocol folder shares.
 */

/** 1 for a token character (tchar): ALPHA, DIGIT and ``!#$%&'*+-.^_`|~``. */
export const TCHAR: Uint8Array = (() => {
  const t = new Uint8Array(256);
  for (let c = 48; c <= 57; c++) t[c] = 1;
  for (let c = 65; c <= 90; c++) t[c] = t[c + 32] = 1;
  for (const c of "!#$%&'*+-.^_`|~") t[c.charCodeAt(0)] = 1;
  return t;
})();

/** Lower-cases an ASCII letter only: CR must never fold into `-`. */
function lowerAscii(c: number): number {
  return c >= 65 && c <= 90 ? c + 32 : c;
}

export function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  const l = c | 0x20; // safe here: only letters a-f pass the range check below
  return l >= 97 && l <= 102 ? l - 87 : -1;
}

/** The decimal digits buf[from, to) as a number, or -1 when there are none or another byte is among them. */
export function decimalAt(buf: Uint8Array, from: number, to: number): number {
  if (from >= to) return -1;
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = buf[i] - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

export function bytesOf(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** Whether buf[off, off + len) holds `want`'s bytes. */
export function sameBytes(buf: Uint8Array, off: number, len: number, want: Uint8Array): boolean {
  if (len !== want.length) return false;
  for (let i = 0; i < len; i++) if (buf[off + i] !== want[i]) return false;
  return true;
}

/** Whether buf[off, off + len) is the lower-case `lower`, ASCII case-insensitively. */
export function sameLowerAscii(buf: Uint8Array, off: number, len: number, lower: Uint8Array): boolean {
  if (len !== lower.length) return false;
  for (let i = 0; i < len; i++) if (lowerAscii(buf[off + i]) !== lower[i]) return false;
  return true;
}

export function latin1(buf: Uint8Array, off: number, len: number): string {
  let s = "";
  for (let i = 0; i < len; i++) s += String.fromCharCode(buf[off + i]);
  return s;
}

/** The header names that decide framing, then Set-Cookie (whether a jar reads the head), as FIELD_* ids. */
export const FRAMING_NAMES: readonly Uint8Array[] = [
  bytesOf("content-length"),
  bytesOf("transfer-encoding"),
  bytesOf("connection"),
  bytesOf("set-cookie"),
];
export const FIELD_CONTENT_LENGTH = 0;
export const FIELD_TRANSFER_ENCODING = 1;
export const FIELD_CONNECTION = 2;
export const FIELD_SET_COOKIE = 3;
/** Any other field (its value is only checked for forbidden bytes). */
export const FIELD_OTHER = 4;
/** No field line yet since the start line: a line starting with whitespace here is not a fold. */
export const FIELD_NONE = 5;

/** List words of Transfer-Encoding (bit 0) and Connection (bit 0 close, bit 1 keep-alive). */
export const TE_WORDS: readonly Uint8Array[] = [bytesOf("chunked")];
export const CONNECTION_WORDS: readonly Uint8Array[] = [bytesOf("close"), bytesOf("keep-alive")];

/** Narrows `mask` (bit k: `words[k]` still matches) by byte `c` at `at`, ASCII case-insensitively. */
export function narrow(words: readonly Uint8Array[], mask: number, at: number, c: number): number {
  const l = lowerAscii(c);
  for (let k = 0; k < words.length; k++) {
    const bit = 1 << k;
    if ((mask & bit) !== 0 && (at >= words[k].length || words[k][at] !== l)) mask &= ~bit;
  }
  return mask;
}

/** The word whose bit survived and whose length is `length`, or -1. */
export function matched(words: readonly Uint8Array[], mask: number, length: number): number {
  for (let k = 0; k < words.length; k++) if ((mask & (1 << k)) !== 0 && words[k].length === length) return k;
  return -1;
}

/** Narrows `mask` (framing names still possible) by the name bytes buf[from, to), which start at `at`. */
export function narrowRange(buf: Uint8Array, from: number, to: number, at: number, mask: number): number {
  for (let k = from; k < to && mask !== 0; k++) mask = narrow(FRAMING_NAMES, mask, at + k - from, buf[k]);
  return mask;
}

export function framingNameAt(buf: Uint8Array, from: number, length: number): number {
  for (let f = 0; f < FRAMING_NAMES.length; f++) {
    if (sameLowerAscii(buf, from, length, FRAMING_NAMES[f])) return f;
  }
  return -1;
}
