/**
 * @module
 * Encodes a request's HPACK header block or QPACK field section once: static indexes or literals without
 * indexing, no Huffman or dynamic table, so every stream sends the same bytes.
 */
import { TCHAR } from "../../http1/chars.ts";
import { CONNECTION_NAMES, HPACK_STATIC, type StaticTable } from "./static.ts";

/** A header HTTP/2 or HTTP/3 cannot carry; `header` is its name as given. */
export class HeaderError extends Error {
  override name = "HeaderError";
  constructor(readonly header: string, message: string) {
    super(`header "${header}": ${message}`);
  }
}

/** How a version writes field lines: [prefix bits, flags] of each representation it uses. */
export interface LineFormat {
  readonly statics: StaticTable;
  /** An indexed pair, and a literal value whose name is indexed. */
  readonly pair: readonly [number, number];
  readonly nameRef: readonly [number, number];
  /** A literal name's length, after the octets of `lead`. */
  readonly literalName: readonly [number, number];
  readonly lead: readonly number[];
  /** The version and the rule a refused field breaks, for messages. */
  readonly rule: string;
}

/** RFC 7541 6.2.2: indexed, or literal without indexing. */
const HPACK_LINES: LineFormat = {
  statics: HPACK_STATIC,
  pair: [7, 0x80],
  nameRef: [4, 0x00],
  literalName: [7, 0x00],
  lead: [0x00],
  rule: "HTTP/2 (RFC 9113 8.2.2)",
};

const enc = new TextEncoder();
const intBytes = new Uint8Array(8);

/** Writes an integer with a `bits`-bit prefix (RFC 7541 5.1), its other bits `flags`; returns the end. */
export function writeInt(out: Uint8Array, at: number, value: number, bits: number, flags: number): number {
  const max = (1 << bits) - 1;
  if (value < max) {
    out[at] = flags | value;
    return at + 1;
  }
  out[at++] = flags | max;
  for (value -= max; value >= 128; value = Math.floor(value / 128)) out[at++] = (value % 128) | 0x80;
  out[at] = value;
  return at + 1;
}

function pushInt(out: number[], value: number, [prefixBits, flags]: readonly [number, number]): void {
  const end = writeInt(intBytes, 0, value, prefixBits, flags);
  for (let i = 0; i < end; i++) out.push(intBytes[i]);
}

/** A raw string literal (the H bit above its length clear). */
function pushString(out: number[], text: string, prefix: readonly [number, number]): void {
  const bytes = enc.encode(text);
  pushInt(out, bytes.length, prefix);
  for (const b of bytes) out.push(b);
}

/** The start of a line whose value is a literal: the name's index, or the name itself. */
function pushName(out: number[], name: string, f: LineFormat): void {
  const index = f.statics.names.get(name);
  if (index !== undefined) return pushInt(out, index, f.nameRef);
  out.push(...f.lead);
  pushString(out, name, f.literalName);
}

/** Indexed when the static table has the pair, else a literal. */
function pushField(out: number[], name: string, value: string, f: LineFormat): void {
  const pair = f.statics.pairs.get(`${name}\0${value}`);
  if (pair !== undefined) return pushInt(out, pair, f.pair);
  pushName(out, name, f);
  pushString(out, value, [7, 0x00]);
}

/** Field lines of `fields` as given (no checks), after the octets of `prefix`. */
export function encodeLines(
  fields: readonly (readonly [string, string])[],
  f: LineFormat = HPACK_LINES,
  prefix: readonly number[] = [],
): Uint8Array {
  const out = [...prefix];
  for (const [name, value] of fields) pushField(out, name, value, f);
  return Uint8Array.from(out);
}

function checkValue(name: string, value: string): void {
  if (/[\0\r\n]/.test(value)) throw new HeaderError(name, "the value has NUL, CR or LF");
  if (/^[ \t]|[ \t]$/.test(value)) {
    throw new HeaderError(name, "the value has leading or trailing whitespace");
  }
}

function checkName(name: string, rule: string): string {
  if (name.startsWith(":")) {
    throw new HeaderError(name, "pseudo-headers are set by the client, not as headers");
  }
  if (name.length === 0 || [...name].some((c) => c.charCodeAt(0) > 127 || TCHAR[c.charCodeAt(0)] !== 1)) {
    throw new HeaderError(name, "the name is not a token (RFC 9110 5.6.2)");
  }
  const lower = name.toLowerCase();
  if (CONNECTION_NAMES.has(lower)) {
    throw new HeaderError(name, `connection-specific headers are not allowed in ${rule}`);
  }
  return lower;
}

/** A request's fields: pseudo-headers, then `headers` in order; `HeaderError` for one `rule` refuses. */
export function requestFields(
  method: string,
  scheme: string,
  authority: string,
  path: string,
  headers: readonly (readonly [string, string])[],
  rule: string,
): [string, string][] {
  const regular: [string, string][] = [];
  for (const [name, value] of headers) {
    const lower = checkName(name, rule);
    checkValue(name, value);
    if (lower === "te" && value.toLowerCase() !== "trailers") {
      throw new HeaderError(name, `te may only be "trailers" in ${rule}, not "${value}"`);
    }
    if (lower === "host") authority = value;
    else regular.push([lower, value]);
  }
  if (method.length === 0 || [...method].some((c) => TCHAR[c.charCodeAt(0)] !== 1)) {
    throw new HeaderError(":method", `"${method}" is not a token`);
  }
  checkValue(":authority", authority);
  checkValue(":path", path);
  return [[":method", method], [":scheme", scheme], [":authority", authority], [":path", path], ...regular];
}

export function encodeRequestHeaders(
  method: string,
  scheme: string,
  authority: string,
  path: string,
  headers: [string, string][],
): Uint8Array {
  return encodeLines(requestFields(method, scheme, authority, path, headers, HPACK_LINES.rule));
}

/** One field as `encodeRequestHeaders` writes it; no checks. */
export function encodeField(name: string, value: string): Uint8Array {
  return encodeLines([[name, value]]);
}

/** The start of a literal without indexing for `name`; the value follows, written per request. */
export function literalNameBytes(name: string): Uint8Array {
  const out: number[] = [];
  pushName(out, name, HPACK_LINES);
  return Uint8Array.from(out);
}
