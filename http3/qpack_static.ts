/**
 * @module
 * The QPACK static table (RFC 9204 Appendix A): 99 entries, index 0 first. Names and values as bytes in
 * one buffer for the decoder; the encoder looks pairs and names up by string once, at build time.
 */

/** [name, value] of static index i. */
export const QPACK_STATIC_TABLE: readonly (readonly [string, string])[] = [
  [":authority", ""],
  [":path", "/"],
  ["age", "0"],
  ["content-disposition", ""],
  ["content-length", "0"],
  ["cookie", ""],
  ["date", ""],
  ["etag", ""],
  ["if-modified-since", ""],
  ["if-none-match", ""],
  ["last-modified", ""],
  ["link", ""],
  ["location", ""],
  ["referer", ""],
  ["set-cookie", ""],
  [":method", "CONNECT"],
  [":method", "DELETE"],
  [":method", "GET"],
  [":method", "HEAD"],
  [":method", "OPTIONS"],
  [":method", "POST"],
  [":method", "PUT"],
  [":scheme", "http"],
  [":scheme", "https"],
  [":status", "103"],
  [":status", "200"],
  [":status", "304"],
  [":status", "404"],
  [":status", "503"],
  ["accept", "*/*"],
  ["accept", "application/dns-message"],
  ["accept-encoding", "gzip, deflate, br"],
  ["accept-ranges", "bytes"],
  ["access-control-allow-headers", "cache-control"],
  ["access-control-allow-headers", "content-type"],
  ["access-control-allow-origin", "*"],
  ["cache-control", "max-age=0"],
  ["cache-control", "max-age=2592000"],
  ["cache-control", "max-age=604800"],
  ["cache-control", "no-cache"],
  ["cache-control", "no-store"],
  ["cache-control", "public, max-age=31536000"],
  ["content-encoding", "br"],
  ["content-encoding", "gzip"],
  ["content-type", "application/dns-message"],
  ["content-type", "application/javascript"],
  ["content-type", "application/json"],
  ["content-type", "application/x-www-form-urlencoded"],
  ["content-type", "image/gif"],
  ["content-type", "image/jpeg"],
  ["content-type", "image/png"],
  ["content-type", "text/css"],
  ["content-type", "text/html; charset=utf-8"],
  ["content-type", "text/plain"],
  ["content-type", "text/plain;charset=utf-8"],
  ["range", "bytes=0-"],
  ["strict-transport-security", "max-age=31536000"],
  ["strict-transport-security", "max-age=31536000; includesubdomains"],
  ["strict-transport-security", "max-age=31536000; includesubdomains; preload"],
  ["vary", "accept-encoding"],
  ["vary", "origin"],
  ["x-content-type-options", "nosniff"],
  ["x-xss-protection", "1; mode=block"],
  [":status", "100"],
  [":status", "204"],
  [":status", "206"],
  [":status", "302"],
  [":status", "400"],
  [":status", "403"],
  [":status", "421"],
  [":status", "425"],
  [":status", "500"],
  ["accept-language", ""],
  ["access-control-allow-credentials", "FALSE"],
  ["access-control-allow-credentials", "TRUE"],
  ["access-control-allow-headers", "*"],
  ["access-control-allow-methods", "get"],
  ["access-control-allow-methods", "get, post, options"],
  ["access-control-allow-methods", "options"],
  ["access-control-expose-headers", "content-length"],
  ["access-control-request-headers", "content-type"],
  ["access-control-request-method", "get"],
  ["access-control-request-method", "post"],
  ["alt-svc", "clear"],
  ["authorization", ""],
  [
    "content-security-policy",
    "script-src 'none'; object-src 'none'; base-uri 'none'",
  ],
  ["early-data", "1"],
  ["expect-ct", ""],
  ["forwarded", ""],
  ["if-range", ""],
  ["origin", ""],
  ["purpose", "prefetch"],
  ["server", ""],
  ["timing-allow-origin", "*"],
  ["upgrade-insecure-requests", "1"],
  ["user-agent", ""],
  ["x-forwarded-for", ""],
  ["x-frame-options", "deny"],
  ["x-frame-options", "sameorigin"],
];

export const QPACK_STATIC_COUNT = 99;
/** The static index of `content-length`, which the decoder recognises by number. */
export const QPACK_STATIC_CONTENT_LENGTH = 4;

const enc = new TextEncoder();
/** All static names and values in one buffer: entry i's name at QPACK_STATIC_NAME_OFF[i], its value after. */
export const QPACK_STATIC_BYTES: Uint8Array = enc.encode(QPACK_STATIC_TABLE.map(([n, v]) => n + v).join(""));
export const QPACK_STATIC_NAME_OFF = new Int32Array(QPACK_STATIC_COUNT);
export const QPACK_STATIC_NAME_LEN = new Int32Array(QPACK_STATIC_COUNT);
export const QPACK_STATIC_VALUE_LEN = new Int32Array(QPACK_STATIC_COUNT);
/** 1 where the entry's name is `:status`. */
export const QPACK_STATIC_IS_STATUS = new Uint8Array(QPACK_STATIC_COUNT);
{
  let off = 0;
  QPACK_STATIC_TABLE.forEach(([n, v], i) => {
    QPACK_STATIC_NAME_OFF[i] = off;
    QPACK_STATIC_NAME_LEN[i] = n.length;
    QPACK_STATIC_VALUE_LEN[i] = v.length;
    QPACK_STATIC_IS_STATUS[i] = n === ":status" ? 1 : 0;
    off += n.length + v.length;
  });
}
