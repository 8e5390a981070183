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

/**
 * Code points a terminal draws two columns wide (East Asian wide and fullwidth forms, emoji) and zero wide
 * (combining marks, variation selectors, the zero-width joiner): approximate ranges, enough to keep a
 * table's columns in line.
 */
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u;
const ZERO_WIDTH = /[\p{M}\u200b-\u200d\ufe00-\ufe0f]/u;

/** The columns `text` (one line, already safe) takes on a terminal. */
export function columnsOf(text: string): number {
  let columns = 0;
  for (const c of text) columns += ZERO_WIDTH.test(c) ? 0 : WIDE.test(c) ? 2 : 1;
  return columns;
}

/**
 * `text` in at most `columns` columns: a longer one keeps its start and its end around "…" (`keep: "ends"`),
 * or its start with "…" last (`keep: "start"`).
 */
export function fitColumns(text: string, columns: number, keep: "ends" | "start" = "ends"): string {
  if (columnsOf(text) <= columns) return text;
  const chars = [...text];
  const take = (from: string[], room: number) => {
    const kept: string[] = [];
    let used = 0;
    for (const c of from) {
      used += columnsOf(c);
      if (used > room) break;
      kept.push(c);
    }
    return kept;
  };
  const room = Math.max(0, columns - 1);
  const head = take(chars, keep === "start" ? room : Math.ceil(room / 2));
  const tail = keep === "start" ? [] : take([...chars].reverse(), room - columnsOf(head.join(""))).reverse();
  return `${head.join("")}…${tail.join("")}`;
}

/** `text` padded with spaces to `columns` columns, on the right (`end`) or the left (`start`). */
export function padColumns(text: string, columns: number, side: "end" | "start" = "end"): string {
  const pad = " ".repeat(Math.max(0, columns - columnsOf(text)));
  return side === "end" ? text + pad : pad + text;
}
