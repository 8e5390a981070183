/**
 * @module
 * Encodes a request's QPACK field section once, when the request is built (RFC 9204 4.5): a prefix of
 * Required Insert Count 0 and Base 0, then field lines as HPACK's encoder writes them in QPACK's
 * representations, so every stream sends the same bytes and the peer's decoder never blocks. Also the
 * static table both directions use (RFC 9204 Appendix A: 99 entries, in HPACK's static layout).
 */
import { encodeLines, type LineFormat, requestFields } from "../http2/hpack/encoder.ts";
import { StaticTable } from "../http2/hpack/static.ts";

/** [name, value] of static index i. */
const QPACK_STATIC_TABLE: readonly (readonly [string, string])[] = [
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
  ["content-security-policy", "script-src 'none'; object-src 'none'; base-uri 'none'"],
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
