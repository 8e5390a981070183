/**
 * @module
 * Encodes a request's QPACK field section once, when the request is built (RFC 9204 4.5): a prefix of
 * Required Insert Count 0 and Base 0, then field lines as HPACK's encoder writes them in QPACK's
 * representations, so every stream sends the same bytes and the peer's decoder never blocks.
 */
import { encodeLines, type LineFormat, requestFields } from "../http2/hpack/encoder.ts";
import { QPACK_STATIC } from "./qpack_static.ts";

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
