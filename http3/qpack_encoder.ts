/**
 * @module
 * Encodes a request's QPACK field section once, when the request is built (RFC 9204 4.5): a prefix of
 * Required Insert Count 0 and Base 0, static-table indexes where the pair exists, literals naming a
 * static entry or with a literal name otherwise, no Huffman and no dynamic table, so every stream sends
 * the same bytes and the peer's decoder never blocks. Fields RFC 9114 4.2 forbids throw `H3HeaderError`;
 * `host` becomes `:authority`.
 */
import { TCHAR } from "../http1/chars.ts";
import { writeInt } from "./qpack_decoder.ts";
import { QPACK_STATIC_TABLE } from "./qpack_static.ts";

/** A header HTTP/3 cannot carry; `header` is its name as given. */
export class H3HeaderError extends Error {
  override name = "H3HeaderError";
  constructor(readonly header: string, message: string) {
    super(`header "${header}": ${message}`);
  }
}

const CONNECTION_SPECIFIC = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "upgrade",
]);

/** Static index of each name (its first entry) and of each full name/value pair. */
const NAME_INDEX = new Map<string, number>();
const PAIR_INDEX = new Map<string, number>();
QPACK_STATIC_TABLE.forEach(([name, value], i) => {
  if (!NAME_INDEX.has(name)) NAME_INDEX.set(name, i);
  PAIR_INDEX.set(`${name}\0${value}`, i);
});

const enc = new TextEncoder();

/** Appends a raw string literal whose length has an N-bit prefix (the H bit above it clear). */
function pushString(out: number[], text: string, prefixBits: number, flags: number): void {
  const bytes = enc.encode(text);
  pushInt(out, bytes.length, prefixBits, flags);
  for (const b of bytes) out.push(b);
}

function pushInt(out: number[], value: number, prefixBits: number, flags: number): void {
  const tmp = new Uint8Array(8);
  const end = writeInt(tmp, 0, value, prefixBits, flags);
  for (let i = 0; i < end; i++) out.push(tmp[i]);
}

/** Appends a field line: indexed static, literal with static name reference, or literal with literal name. */
function pushField(out: number[], name: string, value: string): void {
  const pair = PAIR_INDEX.get(`${name}\0${value}`);
  if (pair !== undefined) return pushInt(out, pair, 6, 0xc0);
  const nameIndex = NAME_INDEX.get(name);
  if (nameIndex !== undefined) pushInt(out, nameIndex, 4, 0x50);
  else pushString(out, name, 3, 0x20);
  pushString(out, value, 7, 0x00);
}

/** A field section of `fields` as given (no checks): the prefix, then each field line in order. */
export function encodeFieldSection(fields: readonly (readonly [string, string])[]): Uint8Array {
  const out: number[] = [0x00, 0x00];
  for (const [name, value] of fields) pushField(out, name, value);
  return Uint8Array.from(out);
}

function checkValue(name: string, value: string): void {
  if (/[\0\r\n]/.test(value)) throw new H3HeaderError(name, "the value has NUL, CR or LF");
  if (/^[ \t]|[ \t]$/.test(value)) {
    throw new H3HeaderError(name, "the value has leading or trailing whitespace");
  }
}

function checkName(name: string): string {
  if (name.startsWith(":")) {
    throw new H3HeaderError(name, "pseudo-headers are set by the client, not as headers");
  }
  if (name.length === 0 || [...name].some((c) => c.charCodeAt(0) > 127 || TCHAR[c.charCodeAt(0)] !== 1)) {
    throw new H3HeaderError(name, "the name is not a token (RFC 9110 5.6.2)");
  }
  const lower = name.toLowerCase();
  if (CONNECTION_SPECIFIC.has(lower)) {
    throw new H3HeaderError(name, "connection-specific headers are not allowed in HTTP/3 (RFC 9114 4.2)");
  }
  return lower;
}

/**
 * Encodes a request's field section: pseudo-headers, then `headers` in their order (names lower-cased).
 * Throws `H3HeaderError` for a header HTTP/3 refuses.
 */
export function encodeRequestFields(
  method: string,
  scheme: string,
  authority: string,
  path: string,
  headers: readonly (readonly [string, string])[],
): Uint8Array {
  const fields: [string, string][] = [];
  for (const [name, value] of headers) {
    const lower = checkName(name);
    checkValue(name, value);
    if (lower === "te" && value.toLowerCase() !== "trailers") {
      throw new H3HeaderError(name, `te may only be "trailers" in HTTP/3 (RFC 9114 4.2), not "${value}"`);
    }
    if (lower === "host") authority = value;
    else fields.push([lower, value]);
  }
  if (method.length === 0 || [...method].some((c) => TCHAR[c.charCodeAt(0)] !== 1)) {
    throw new H3HeaderError(":method", `"${method}" is not a token`);
  }
  checkValue(":authority", authority);
  checkValue(":path", path);
  return encodeFieldSection([[":method", method], [":scheme", scheme], [":authority", authority], [
    ":path",
    path,
  ], ...fields]);
}
