/**
 * @module
 * Encodes a request's HPACK block once: static indexes where the pair exists, literals without indexing
 * otherwise, no Huffman or dynamic table, so every stream sends the same bytes.
 */
import { TCHAR } from "../../http1/chars.ts";
import { STATIC_TABLE } from "./static.ts";

/** A header HTTP/2 cannot carry; `header` is its name as given. */
export class H2HeaderError extends Error {
  override name = "H2HeaderError";
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
STATIC_TABLE.forEach(([name, value], i) => {
  if (!NAME_INDEX.has(name)) NAME_INDEX.set(name, i + 1);
  PAIR_INDEX.set(`${name}\0${value}`, i + 1);
});

const enc = new TextEncoder();

/** An integer with an N-bit prefix (RFC 7541 5.1) whose other bits are `flags`. */
function pushInt(out: number[], value: number, prefixBits: number, flags: number): void {
  const max = (1 << prefixBits) - 1;
  if (value < max) {
    out.push(flags | value);
    return;
  }
  out.push(flags | max);
  for (value -= max; value >= 128; value = Math.floor(value / 128)) out.push((value % 128) | 0x80);
  out.push(value);
}

function pushString(out: number[], text: string): void {
  const bytes = enc.encode(text);
  pushInt(out, bytes.length, 7, 0);
  for (const b of bytes) out.push(b);
}

/** Indexed when the static table has the pair, else literal without indexing. */
function pushField(out: number[], name: string, value: string): void {
  const pair = PAIR_INDEX.get(`${name}\0${value}`);
  if (pair !== undefined) return pushInt(out, pair, 7, 0x80);
  const nameIndex = NAME_INDEX.get(name);
  if (nameIndex !== undefined) pushInt(out, nameIndex, 4, 0x00);
  else {
    out.push(0x00);
    pushString(out, name);
  }
  pushString(out, value);
}

function checkValue(name: string, value: string): void {
  if (/[\0\r\n]/.test(value)) throw new H2HeaderError(name, "the value has NUL, CR or LF");
  if (/^[ \t]|[ \t]$/.test(value)) {
    throw new H2HeaderError(name, "the value has leading or trailing whitespace");
  }
}

function checkName(name: string): string {
  if (name.startsWith(":")) {
    throw new H2HeaderError(name, "pseudo-headers are set by the client, not as headers");
  }
  if (name.length === 0 || [...name].some((c) => c.charCodeAt(0) > 127 || TCHAR[c.charCodeAt(0)] !== 1)) {
    throw new H2HeaderError(name, "the name is not a token (RFC 9110 5.6.2)");
  }
  const lower = name.toLowerCase();
  if (CONNECTION_SPECIFIC.has(lower)) {
    throw new H2HeaderError(name, "connection-specific headers are not allowed in HTTP/2 (RFC 9113 8.2.2)");
  }
  return lower;
}

/** Pseudo-headers, then `headers` in order (names lower-cased); `H2HeaderError` for one h2 refuses. */
export function encodeRequestHeaders(
  method: string,
  scheme: string,
  authority: string,
  path: string,
  headers: [string, string][],
): Uint8Array {
  const regular: [string, string][] = [];
  for (const [name, value] of headers) {
    const lower = checkName(name);
    checkValue(name, value);
    if (lower === "te" && value.toLowerCase() !== "trailers") {
      throw new H2HeaderError(name, `te may only be "trailers" in HTTP/2 (RFC 9113 8.2.2), not "${value}"`);
    }
    if (lower === "host") authority = value;
    else regular.push([lower, value]);
  }
  if (method.length === 0 || [...method].some((c) => TCHAR[c.charCodeAt(0)] !== 1)) {
    throw new H2HeaderError(":method", `"${method}" is not a token`);
  }
  checkValue(":authority", authority);
  checkValue(":path", path);
  const out: number[] = [];
  pushField(out, ":method", method);
  pushField(out, ":scheme", scheme);
  pushField(out, ":authority", authority);
  pushField(out, ":path", path);
  for (const [name, value] of regular) pushField(out, name, value);
  return Uint8Array.from(out);
}

/** One field as `encodeRequestHeaders` writes it; no checks. */
export function encodeField(name: string, value: string): Uint8Array {
  const out: number[] = [];
  pushField(out, name, value);
  return Uint8Array.from(out);
}

/** The start of a literal without indexing for `name`; the value follows, written per request. */
export function literalNameBytes(name: string): Uint8Array {
  const out: number[] = [];
  const nameIndex = NAME_INDEX.get(name);
  if (nameIndex !== undefined) pushInt(out, nameIndex, 4, 0x00);
  else {
    out.push(0x00);
    pushString(out, name);
  }
  return Uint8Array.from(out);
}
