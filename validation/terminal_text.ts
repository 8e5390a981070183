/**
 * @module
 * Outside text made safe to print or embed: escapes could rewrite lines, markup add elements.
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
  return text.replace(UNSEEN, (c) => NAMED_ESCAPES[c] ?? unicodeEscape(c));
}

/** Spaces that pass for a plain one (no-break, thin, ideographic, ...): a value holding one looks right. */
const ODD_SPACES = /[\u00a0\u2000-\u200a\u202f\u205f\u3000]/g;

/** `text` quoted as JSON, hidden characters and odd spaces as `\\uXXXX` (`"1\\u00a0s"`): the fault shows. */
export function quotedVisible(text: string): string {
  return escapeHidden(JSON.stringify(text)).replace(ODD_SPACES, unicodeEscape);
}

/** What a number written another locale's way needs, e.g. "write its digits as 0-9"; "" otherwise. */
export function numberSpelling(text: string): string {
  if (/[^\P{Nd}0-9]/u.test(text)) return "write its digits as 0-9";
  if (/\d,\d/.test(text)) return "a comma is no decimal point or thousands separator here: write 1.5 or 1000";
  // A sign as rich text writes it (U+2212 minus, an en dash, a full-width plus) looks right, reads as text.
  const sign = /[\u2010-\u2015\u2212\u2264\u2265\uFE63\uFF0B\uFF0D]/u.exec(text)?.[0];
  if (!sign) return "";
  const ascii = ({ "\u2264": "<=", "\u2265": ">=", "\uFF0B": "+" } as Record<string, string>)[sign] ?? "-";
  const hex = sign.charCodeAt(0).toString(16).toUpperCase();
  return `U+${hex} looks like "${ascii}" but is not: write "${ascii}"`;
}

/** One UTF-16 unit as `\\uXXXX`. */
export function unicodeEscape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** C1 controls, bidi, zero-width and line separators: they hide or reorder text (`a\u200bpp` reads `app`). */
const HIDDEN = /[\u0080-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g;

/** `text` with the characters that hide or reorder it written as `\\uXXXX`. */
export function escapeHidden(text: string): string {
  return text.replace(HIDDEN, unicodeEscape);
}

const INVISIBLE = /[\u0080-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** JSON text with invisible controls (C1, bidi overrides, line separators) escaped: an editor shows them. */
export function escapeInvisible(json: string): string {
  return json.replace(INVISIBLE, unicodeEscape);
}

/** Code points a terminal draws two columns wide (East Asian wide, fullwidth, emoji), approximately. */
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u;
/** Code points a terminal draws zero wide: combining marks, variation selectors, the zero-width joiner. */
const ZERO_WIDTH = /[\p{M}\u200b-\u200d\ufe00-\ufe0f]/u;

/** The columns `text` (one line, already safe) takes on a terminal. */
export function columnsOf(text: string): number {
  let columns = 0;
  for (const c of text) columns += ZERO_WIDTH.test(c) ? 0 : WIDE.test(c) ? 2 : 1;
  return columns;
}

/** `text` in at most `columns` columns, cut with "…" between its ends or (`keep: "start"`) at its end. */
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

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
