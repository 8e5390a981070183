/**
 * @module
 * A user-given name as every output keeps it: one line with nothing hidden (controls, bidi and zero-width
 * characters escaped by `visibleLine`), at most `MAX_NAME_CHARS` (a longer one keeps a prefix and a hash),
 * and a name cleaning changed marked with a hash of the original. Applied where a name is first recorded.
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
