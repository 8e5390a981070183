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
/** C0 controls but tab and newline, DEL, C1 controls (the 8-bit CSI among them) and bidi overrides. */
// deno-lint-ignore no-control-regex -- matching control characters is the point
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

/** `text` without terminal escape sequences and control characters (tab and newline stay). */
export function terminalSafe(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, "").replace(CONTROL, "");
}
