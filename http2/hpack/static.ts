/**
 * @module
 * The HPACK static table (RFC 7541 Appendix A), as bytes for the decoder and as strings for the encoder.
 */

/** [name, value] of static index i + 1. */
export const STATIC_TABLE: readonly (readonly [string, string])[] = [
  [":authority", ""],
  [":method", "GET"],
  [":method", "POST"],
  [":path", "/"],
  [":path", "/index.html"],
  [":scheme", "http"],
  [":scheme", "https"],
  [":status", "200"],
  [":status", "204"],
  [":status", "206"],
  [":status", "304"],
  [":status", "400"],
  [":status", "404"],
  [":status", "500"],
  ["accept-charset", ""],
  ["accept-encoding", "gzip, deflate"],
  ["accept-language", ""],
  ["accept-ranges", ""],
  ["accept", ""],
  ["access-control-allow-origin", ""],
  ["age", ""],
  ["allow", ""],
  ["authorization", ""],
  ["cache-control", ""],
  ["content-disposition", ""],
  ["content-encoding", ""],
  ["content-language", ""],
  ["content-length", ""],
  ["content-location", ""],
  ["content-range", ""],
  ["content-type", ""],
  ["cookie", ""],
  ["date", ""],
  ["etag", ""],
  ["expect", ""],
  ["expires", ""],
  ["from", ""],
  ["host", ""],
  ["if-match", ""],
  ["if-modified-since", ""],
  ["if-none-match", ""],
  ["if-range", ""],
  ["if-unmodified-since", ""],
  ["last-modified", ""],
  ["link", ""],
  ["location", ""],
  ["max-forwards", ""],
  ["proxy-authenticate", ""],
  ["proxy-authorization", ""],
  ["range", ""],
  ["referer", ""],
  ["refresh", ""],
  ["retry-after", ""],
  ["server", ""],
  ["set-cookie", ""],
  ["strict-transport-security", ""],
  ["transfer-encoding", ""],
  ["user-agent", ""],
  ["vary", ""],
  ["via", ""],
  ["www-authenticate", ""],
];

export const STATIC_COUNT = 61;
/** Static indexes the decoder recognises by number. */
export const STATIC_STATUS_FIRST = 8;
export const STATIC_STATUS_LAST = 14;
export const STATIC_CONTENT_LENGTH = 28;
export const STATIC_TRANSFER_ENCODING = 57;

const enc = new TextEncoder();
/** All static names and values as bytes: entry i's name at NAME_OFF[i], its value after it. */
export const STATIC_BYTES: Uint8Array = enc.encode(STATIC_TABLE.map(([n, v]) => n + v).join(""));
export const STATIC_NAME_OFF = new Int32Array(STATIC_COUNT + 1);
export const STATIC_NAME_LEN = new Int32Array(STATIC_COUNT + 1);
export const STATIC_VALUE_LEN = new Int32Array(STATIC_COUNT + 1);
{
  let off = 0;
  STATIC_TABLE.forEach(([n, v], i) => {
    STATIC_NAME_OFF[i + 1] = off;
    STATIC_NAME_LEN[i + 1] = n.length;
    STATIC_VALUE_LEN[i + 1] = v.length;
    off += n.length + v.length;
  });
}
