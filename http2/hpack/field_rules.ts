/**
 * @module
 * The field rules of RFC 9113 8.2 the decoder applies on bytes: malformed names and values (8.2.1),
 * connection-specific fields (8.2.2), `:status` and `content-length`. Malformed is a stream error (8.1.1).
 */
const ascii = (text: string) => new TextEncoder().encode(text);
export const NAME_STATUS = ascii(":status");
export const NAME_CONTENT_LENGTH = ascii("content-length");
const NAME_TE = ascii("te");
const NAME_UPGRADE = ascii("upgrade");
const NAME_CONNECTION = ascii("connection");
const NAME_KEEP_ALIVE = ascii("keep-alive");
const NAME_PROXY_CONNECTION = ascii("proxy-connection");
const NAME_TRANSFER_ENCODING = ascii("transfer-encoding");
const VALUE_TRAILERS = ascii("trailers");

export function sameBytes(buf: Uint8Array, off: number, len: number, name: Uint8Array): boolean {
  if (len !== name.length) return false;
  for (let i = 0; i < len; i++) if (buf[off + i] !== name[i]) return false;
  return true;
}

/** Non-empty, 0x21-0x7e but upper case, a colon only first (RFC 9113 8.2.1). */
export function nameValid(buf: Uint8Array, off: number, len: number): boolean {
  if (len === 0) return false;
  for (let i = 0; i < len; i++) {
    const c = buf[off + i];
    if (c < 0x21 || c > 0x7e || (c >= 0x41 && c <= 0x5a) || (c === 0x3a && i > 0)) return false;
  }
  return true;
}

/** A value has no NUL, CR or LF, and no SP or HTAB at either end (RFC 9113 8.2.1); other octets pass. */
export function valueValid(buf: Uint8Array, off: number, len: number): boolean {
  if (len === 0) return true;
  const first = buf[off], last = buf[off + len - 1];
  if (first === 32 || first === 9 || last === 32 || last === 9) return false;
  for (let i = off; i < off + len; i++) {
    const c = buf[i];
    if (c === 0 || c === 10 || c === 13) return false;
  }
  return true;
}

/**
 * Whether a regular field is connection-specific (RFC 9113 8.2.2): `connection`, `keep-alive`,
 * `proxy-connection`, `transfer-encoding`, `upgrade`, or `te` but `trailers`; by index when indexed.
 */
export function connectionSpecific(
  n: Uint8Array,
  nOff: number,
  nLen: number,
  v: Uint8Array,
  vOff: number,
  vLen: number,
): boolean {
  switch (nLen) {
    case 2:
      return sameBytes(n, nOff, 2, NAME_TE) && !isTrailers(v, vOff, vLen);
    case 7:
      return sameBytes(n, nOff, 7, NAME_UPGRADE);
    case 10:
      return sameBytes(n, nOff, 10, NAME_CONNECTION) || sameBytes(n, nOff, 10, NAME_KEEP_ALIVE);
    case 16:
      return sameBytes(n, nOff, 16, NAME_PROXY_CONNECTION);
    case 17:
      return sameBytes(n, nOff, 17, NAME_TRANSFER_ENCODING);
  }
  return false;
}

function isTrailers(v: Uint8Array, off: number, len: number): boolean {
  if (len !== VALUE_TRAILERS.length) return false;
  for (let i = 0; i < len; i++) if ((v[off + i] | 0x20) !== VALUE_TRAILERS[i]) return false;
  return true;
}

/** Three digits but 000; 600-999 and 001-099 read as errors, as over HTTP/1.1 (RFC 9110 15); else -1. */
export function statusValue(v: Uint8Array, off: number, len: number): number {
  if (len !== 3) return -1;
  const d0 = v[off] - 48, d1 = v[off + 1] - 48, d2 = v[off + 2] - 48;
  if (d0 < 0 || d0 > 9 || d1 < 0 || d1 > 9 || d2 < 0 || d2 > 9 || d0 + d1 + d2 === 0) return -1;
  return d0 * 100 + d1 * 10 + d2;
}

/** A `content-length` value: 1 to 15 digits (below 10^15), or -1. */
export function contentLengthValue(v: Uint8Array, off: number, len: number): number {
  if (len === 0 || len > 15) return -1;
  let n = 0;
  for (let i = 0; i < len; i++) {
    const d = v[off + i] - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}
