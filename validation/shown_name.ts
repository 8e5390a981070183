/**
 * @module
 * A name a user gave (a request's, a check's, a step's or flow's, a script's thrown message) as every
 * output keeps it: one line with nothing hidden (CR LF would forge terminal lines, ESC recolour or rewrite
 * them, NUL and bidi overrides such as U+202E hide what a summary.md says: each is written as its escape,
 * `\r\n`, `\u001b`, `\u202e`, by terminal_text.ts's `visibleLine`, as are bidi marks and zero-width
 * characters), and at most `MAX_NAME_CHARS` long, a longer one kept as a readable prefix and a short hash of
 * the whole, so two long names still differ and a metrics label stays far below the 2,048 bytes
 * Prometheus-compatible receivers take. A name that cleaning changed is marked with a short hash of it as
 * given the same way (`ab (cleaned, sha256:1a2b3c4d)`), so it neither reads as the plain name it now looks
 * like (`a\u200bb` is not `ab`, a decomposed `e\u0301` is not the composed `é`, a lone surrogate is U+FFFD)
 * nor becomes empty. Applied where a name is first recorded, so a 1 MiB name costs its worker one pass and no
 * output ever holds it.
 */
import { createHash } from "node:crypto";
import { visibleLine } from "./terminal_text.ts";

/** Longest name kept whole (UTF-16 units: at most 1,536 bytes of UTF-8). */
export const MAX_NAME_CHARS = 384;
/** What a name needs no work for: printable ASCII, short. */
const PLAIN = /^[ -~]*$/;

/** `name` as outputs keep it (see the module comment); a plain short name comes back as it is. */
export function shownName(name: string): string {
  return shownNameWithin(name, MAX_NAME_CHARS);
}

/**
 * `name` as `shownName` keeps it, in at most `maxChars` (64 or more): room left for what follows it, as a
 * thrown message's `(file:line)`.
 */
export function shownNameWithin(name: string, maxChars: number): string {
  if (name.length <= maxChars && PLAIN.test(name)) return name;
  // In Unicode's composed form (NFC): "e" and a combining accent look as "é" does, so a name so written
  // is marked as cleaned rather than shown as the other.
  // A lone surrogate (half of a pair) becomes U+FFFD: JSON keeps it only as an escape strict readers refuse.
  const line = visibleLine(name).toWellFormed().normalize("NFC");
  if (line === name && line.length <= maxChars) return line;
  const hash = createHash("sha256").update(name).digest("hex").slice(0, 8);
  const cleaned = `${line}${line === "" ? "" : " "}(cleaned, sha256:${hash})`;
  if (cleaned.length <= maxChars) return cleaned;
  const tail = `… (${line.length.toLocaleString("en-US")} chars, sha256:${hash})`;
  // Cut on a code point, not inside a surrogate pair.
  let cut = maxChars - tail.length;
  if (/[\ud800-\udbff]/.test(line[cut - 1])) cut--;
  return line.slice(0, cut) + tail;
}
