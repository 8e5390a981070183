/**
 * @module
 * k6's error for `res.json()` of a body that is no JSON: Go's encoding/json syntax error (its words, the
 * byte it stops at) placed by line and character as k6's response.go counts them. Run only after
 * JSON.parse refuses a body, so a body that parses pays nothing.
 */
import { thrownByGo } from "./error_codes.ts";

const ESCAPES: Record<number, string> = { 7: "a", 8: "b", 9: "t", 10: "n", 11: "v", 12: "f", 13: "r" };
const hex2 = (c: number) => c.toString(16).padStart(2, "0");

/** Go's quoteChar: a byte as a Latin-1 rune in strconv.Quote's escapes, between single quotes. */
function quoteChar(c: number): string {
  if (c === 39) return "'\\''";
  if (ESCAPES[c] || c === 92) return `'\\${ESCAPES[c] ?? "\\"}'`;
  if (c < 32 || c === 127) return `'\\x${hex2(c)}'`;
  return (c >= 0x80 && c <= 0xa0) || c === 0xad ? `'\\u00${hex2(c)}'` : `'${String.fromCharCode(c)}'`;
}

/** Go's scanner over `b`: its message and Offset (bytes read), an end read as the space Go's eof() feeds. */
function goSyntaxError(b: Uint8Array): [string, number] | null {
  let i = 0;
  const at = () => i < b.length ? b[i] : 32, digit = () => at() >= 48 && at() <= 57;
  const fail = (context: string): never => {
    throw [`invalid character ${quoteChar(at())} ${context}`, Math.min(i + 1, b.length)];
  };
  const blank = () => {
    while (i < b.length && (b[i] === 32 || b[i] === 9 || b[i] === 10 || b[i] === 13)) i++;
  };
  const space = () => {
    blank();
    if (i === b.length) throw ["unexpected end of JSON input", b.length];
  };
  const digits = (context: string) => {
    if (!digit()) fail(context);
    while (digit()) i++;
  };
  const string = () => {
    for (i++; i < b.length && b[i] !== 34; i++) {
      if (b[i] < 32) fail("in string literal");
      if (b[i] !== 92) continue;
      i++;
      if (at() === 117) {
        for (let n = 0; n < 4; n++) {
          const hex = String.fromCharCode(b[++i] ?? 32);
          if (!/[0-9a-fA-F]/.test(hex)) fail("in \\u hexadecimal character escape");
        }
      } else if (!'"\\/bfnrt'.includes(String.fromCharCode(at()))) fail("in string escape code");
    }
    space(), i++; // at the closing quote, or the end
  };
  const value = (): void => {
    space();
    const c = b[i];
    if (c === 34) return string();
    for (const word of ["true", "false", "null"]) {
      if (c !== word.charCodeAt(0)) continue;
      for (const ch of word.slice(1)) {
        if (b[++i] !== ch.charCodeAt(0)) fail(`in literal ${word} (expecting '${ch}')`);
      }
      return void i++;
    }
    if (c === 45 || (c >= 48 && c <= 57)) {
      if (c === 45) i++;
      if (at() === 48) i++;
      else digits("in numeric literal");
      if (at() === 46) i++, digits("after decimal point in numeric literal");
      if (at() === 69 || at() === 101) {
        if (b[++i] === 43 || b[i] === 45) i++;
        digits("in exponent of numeric literal");
      }
      return;
    }
    const [close, next] = c === 123 ? [125, "after object key:value pair"] : [93, "after array element"];
    if (c !== 123 && c !== 91) fail("looking for beginning of value");
    i++, space();
    if (b[i] === close) return void i++;
    for (;;) {
      if (c === 123) {
        if (b[i] !== 34) fail("looking for beginning of object key string");
        string(), space(), b[i] === 58 || fail("after object key"), i++;
      }
      value(), space();
      if (b[i] === close) return void i++;
      if (b[i] !== 44) fail(next);
      i++, c === 123 && space();
    }
  };
  try {
    value(), blank();
    if (i < b.length) fail("after top-level value");
    return null;
  } catch (e) {
    if (Array.isArray(e)) return e as [string, number];
    throw e;
  }
}

/** k6's GoError for `b`, placed at Go's offset as k6 counts (runes, from 1; the line after a newline). */
export function jsonErrorOf(b: Uint8Array, refused: Error): Error {
  const [message, offset] = goSyntaxError(b) ?? [refused.message, 0];
  let line = 1, character = 0;
  for (let i = 0; i < b.length; i += b[i] < 0xc0 ? 1 : b[i] < 0xe0 ? 2 : b[i] < 0xf0 ? 3 : 4) {
    if (b[i] === 10) line++, character = 0;
    else character++;
    if (i >= offset - 1) {
      if (b[i] === 10) character = 1;
      break;
    }
  }
  const place = `line ${line}, character ${character}`;
  return thrownByGo(`cannot parse json due to an error at ${place} , error: ${message}`);
}
