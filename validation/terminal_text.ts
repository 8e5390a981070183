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
