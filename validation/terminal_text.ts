/**
 * @module
 * Text from outside made safe to print: a crafted string's escape sequences could rewrite or hide lines.
 */

/** Escape sequences, 7- and 8-bit: CSI, string commands (OSC, DCS, SOS, PM, APC) to BEL or ST, `ESC x`. */
const ESCAPE_SEQUENCE =
  // deno-lint-ignore no-control-regex -- matching control characters is the point
  /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?|(?:\x1b[\]PX^_]|[\x90\x98\x9d-\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|\x1b[ -/]*[0-~]?/g;
/** Controls but tab and newline, and bidi and zero-width characters that hide or reorder text. */
const CONTROL =
  // deno-lint-ignore no-control-regex -- matching control characters is the point
  /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g;

/** `text` without escape sequences and control characters (tab and newline stay). */
export function terminalSafe(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, "").replace(CONTROL, "");
}

const UNSEEN =
  // deno-lint-ignore no-control-regex -- matching control characters is the point
  /[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g;
const NAMED_ESCAPES: Record<string, string> = { "\r": "\\r", "\n": "\\n", "\t": "\\t" };

/** `text` on one line with controls, bidi and zero-width characters escaped, so no reply forges a line. */
export function visibleLine(text: string): string {
  return text.replace(
    UNSEEN,
    (c) => NAMED_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
