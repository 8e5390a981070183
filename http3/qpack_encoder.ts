/**
 * @module
 * Encodes a request's QPACK field section once (RFC 9204 4.5) with Required Insert Count 0 and Base 0, so
 * every stream sends the same bytes and the peer's decoder never blocks; and the static table (Appendix A).
 */
import { encodeLines, type LineFormat, requestFields } from "../http2/hpack/encoder.ts";
import { each, StaticTable, valueless } from "../http2/hpack/static.ts";

/** [name, value] of static index i (runs of a name as one `each`, of names with no value as `valueless`). */
const QPACK_STATIC_TABLE: readonly (readonly [string, string])[] = [
  [":authority", ""],
  [":path", "/"],
  ["age", "0"],
  ["content-disposition", ""],
  ["content-length", "0"],
  ...valueless(
    "cookie date etag if-modified-since if-none-match last-modified link location referer set-cookie",
  ),
  ...each(":method", "CONNECT", "DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT"),
  ...each(":scheme", "http", "https"),
  ...each(":status", "103", "200", "304", "404", "503"),
  ...each("accept", "*/*", "application/dns-message"),
  ["accept-encoding", "gzip, deflate, br"],
  ["accept-ranges", "bytes"],
  ...each("access-control-allow-headers", "cache-control", "content-type"),
  ["access-control-allow-origin", "*"],
  ...each("cache-control", "max-age=0", "max-age=2592000", "max-age=604800", "no-cache", "no-store"),
  ["cache-control", "public, max-age=31536000"],
  ...each("content-encoding", "br", "gzip"),
  ...each("content-type", "application/dns-message", "application/javascript", "application/json"),
  ...each("content-type", "application/x-www-form-urlencoded", "image/gif", "image/jpeg", "image/png"),
  ...each("content-type", "text/css", "text/html; charset=utf-8", "text/plain", "text/plain;charset=utf-8"),
  ["range", "bytes=0-"],
  ...each("strict-transport-security", "max-age=31536000", "max-age=31536000; includesubdomains"),
  ["strict-transport-security", "max-age=31536000; includesubdomains; preload"],
  ...each("vary", "accept-encoding", "origin"),
  ["x-content-type-options", "nosniff"],
  ["x-xss-protection", "1; mode=block"],
  ...each(":status", "100", "204", "206", "302", "400", "403", "421", "425", "500"),
  ["accept-language", ""],
  ...each("access-control-allow-credentials", "FALSE", "TRUE"),
  ["access-control-allow-headers", "*"],
  ...each("access-control-allow-methods", "get", "get, post, options", "options"),
  ["access-control-expose-headers", "content-length"],
  ["access-control-request-headers", "content-type"],
  ...each("access-control-request-method", "get", "post"),
  ["alt-svc", "clear"],
  ["authorization", ""],
  ["content-security-policy", "script-src 'none'; object-src 'none'; base-uri 'none'"],
  ["early-data", "1"],
  ...valueless("expect-ct forwarded if-range origin"),
  ["purpose", "prefetch"],
  ["server", ""],
  ["timing-allow-origin", "*"],
  ["upgrade-insecure-requests", "1"],
  ...valueless("user-agent x-forwarded-for"),
  ...each("x-frame-options", "deny", "sameorigin"),
];

export const QPACK_STATIC = new StaticTable(QPACK_STATIC_TABLE, 0);

/** RFC 9204 4.5.2, 4.5.4 and 4.5.6, static references only. */
const QPACK_LINES: LineFormat = {
  statics: QPACK_STATIC,
  pair: [6, 0xc0],
  nameRef: [4, 0x50],
  literalName: [3, 0x20],
  lead: [],
  rule: "HTTP/3 (RFC 9114 4.2)",
};

/** A field section of `fields` as given (no checks): the prefix, then each field line in order. */
export function encodeFieldSection(fields: readonly (readonly [string, string])[]): Uint8Array {
  return encodeLines(fields, QPACK_LINES, [0x00, 0x00]);
}

/** A request's field section: `requestFields` (which throws `HeaderError`) encoded. */
export function encodeRequestFields(
  method: string,
  scheme: string,
  authority: string,
  path: string,
  headers: readonly (readonly [string, string])[],
): Uint8Array {
  return encodeFieldSection(requestFields(method, scheme, authority, path, headers, QPACK_LINES.rule));
}
