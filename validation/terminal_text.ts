/**
 * @module
 * Text from outside (a results file, an experiment file, a server's answer, a target's output) made
 * safe to print on a terminal. A crafted string could otherwise carry escape sequences that move the
 * cursor, rewrite earlier lines, retitle the window or hide text, so a message would not say what it
 * seems to. Every print of such a string goes through `terminalSafe`; loadlab's own colouring is added
 * after, never passed through it.
 */

/**
 * Escape sequences, 7- and 8-bit: CSI (`ESC [` or 0x9b, parameters, final byte), string commands (OSC,
 * DCS, SOS, PM, APC) up to BEL or ST, and the short `ESC x` ones.
 */
const ESCAPE_SEQUENCE =
  // deno-lint-ignore no-control-regex -- matching control characters is the point
  /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?|(?:\x1b[\]PX^_]|[\x90\x98\x9d-\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|\x1b[ -/]*[0-~]?/g;
/**
 * C0 controls but tab and newline, DEL, C1 controls (the 8-bit CSI among them), and the characters that
 * change what text seems to say without showing: bidi overrides and isolates (U+202A-U+202E,
 * U+2066-U+2069), bidi marks (U+200E, U+200F, U+061C, which reorder the text around them) and zero-width
 * ones (U+200B-U+200D, U+2060, U+FEFF, which make two names that look alike differ).
 */
const CONTROL =
  // deno-lint-ignore no-control-regex -- matching control characters is the point
  /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g;

/** `text` without terminal escape sequences and control characters (tab and newline stay). */
export function terminalSafe(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, "").replace(CONTROL, "");
}

/**
 * What `visibleLine` writes as an escape: controls, line and paragraph separators, bidi and zero-width ones.
 */
const UNSEEN =
  // deno-lint-ignore no-control-regex -- matching control characters is the point
  /[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g;
const NAMED_ESCAPES: Record<string, string> = { "\r": "\\r", "\n": "\\n", "\t": "\\t" };

/**
 * `text` on one line with nothing hidden, for what a server or a script said (a status message, a header
 * value, a body, an error string, a check's name) where a reader reads lines: CR, LF, tab, every other
 * control and the bidi and zero-width characters become their escapes (`\r`, `\n`, `\u202e`), so a reply
 * neither prints a line of its own (`FAKE\r\nVerdict: ok`) nor reverses one; ESC becomes `\u001b`, its
 * sequence inert text. Results files keep the text as it came.
 */
export function visibleLine(text: string): string {
  return text.replace(
    UNSEEN,
    (c) => NAMED_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
