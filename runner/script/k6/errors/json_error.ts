/**
 * @module
 * k6's error for `res.json()` of a body that is no JSON: Go's encoding/json syntax error, placed as k6's.
 */
import { thrownByGo } from "./error_codes.ts";

/** Go's quoteChar: a byte as a Latin-1 rune in strconv.Quote's escapes, between single quotes. */
function quoteChar(c: number): string {
  const escape = "abtnvfr"[c - 7] ?? (c === 39 ? "'" : c === 92 ? "\\" : "");
  if (escape) return `'\\${escape}'`;
  if (c < 32 || c === 127) return `'\\x${c.toString(16).padStart(2, "0")}'`;
  return (c >= 0x80 && c <= 0xa0) || c === 0xad ? `'\\u00${c.toString(16)}'` : `'${String.fromCharCode(c)}'`;
}

/** Go's scanner over `b`: its message and Offset (bytes read), the end read as eof()'s space. */
function goSyntaxError(b: Uint8Array): [string, number] | null {
  let i = 0;
  const at = () => b[i] ?? 32, is = (re: RegExp) => re.test(String.fromCharCode(at()));
  const fail = (context = ""): never => {
    throw context;
  };
  const blank = () => {
    while ([32, 9, 10, 13].includes(b[i])) i++;
  };
  const space = () => (blank(), i < b.length ? b[i] : fail());
  const digits = (context: string): unknown => is(/\d/) ? (i++, is(/\d/) && digits("")) : fail(context);
  const string = () => {
    for (i++; b[i] !== 34; i++) {
      if (i === b.length) fail();
      if (b[i] < 32) fail("in string literal");
      if (b[i] !== 92) continue;
      if (b[++i] !== 117 && !is(/["\\/bfnrt]/)) fail("in string escape code");
      for (const last = b[i] === 117 ? i + 4 : i; i < last;) {
        i++, is(/[\da-fA-F]/) || fail("in \\u hexadecimal character escape");
      }
    }
    i++;
  };
  const value = (): void => {
    const c = space(), word = ["true", "false", "null"].find((w) => w.charCodeAt(0) === c);
    if (c === 34) return string();
    const miss = [...word?.slice(1) ?? ""].find((ch) => b[++i] !== ch.charCodeAt(0));
    if (word !== undefined) return void (miss ? fail(`in literal ${word} (expecting '${miss}')`) : i++);
    if (c === 45 || is(/\d/)) {
      if (c === 45) i++;
      at() === 48 ? i++ : digits("in numeric literal");
      if (at() === 46) i++, digits("after decimal point in numeric literal");
      if (is(/[eE]/)) (b[++i] === 43 || b[i] === 45) && i++, digits("in exponent of numeric literal");
      return;
    }
    if (c !== 123 && c !== 91) fail("looking for beginning of value");
    const object = c === 123, close = object ? 125 : 93;
    if ((i++, space()) === close) return void i++;
    for (;;) {
      if (object) {
        if (space() !== 34) fail("looking for beginning of object key string");
        if ((string(), space()) !== 58) fail("after object key");
        i++;
      }
      if ((value(), space()) === close) return void i++;
      if (b[i] !== 44) fail(object ? "after object key:value pair" : "after array element");
      i++;
    }
  };
  try {
    value(), blank();
    return i < b.length ? fail("after top-level value") : null;
  } catch (context) {
    if (context) return [`invalid character ${quoteChar(at())} ${context}`, Math.min(i + 1, b.length)];
    return ["unexpected end of JSON input", b.length];
  }
}

/** k6's GoError for `b`: runes counted from 1 on a line, an error at a newline the next line's first. */
export function jsonErrorOf(b: Uint8Array, refused: Error): Error {
  const [text, offset] = goSyntaxError(b) ?? [refused.message, 0];
  let p = Math.max(offset - 1, 0); // the rune at or after Go's offset, counted as k6 counts runes
  while ((b[p] & 0xc0) === 0x80) p++;
  const head = b.subarray(0, p + 1), line = 1 + head.filter((c) => c === 10).length;
  const char = b[p] === 10 ? 1 : head.subarray(head.lastIndexOf(10) + 1).filter((c) => c >> 6 !== 2).length;
  return thrownByGo(`cannot parse json due to an error at line ${line}, character ${char} , error: ${text}`);
}
