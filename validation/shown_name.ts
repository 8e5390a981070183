/**
 * @module
 * A user-given name as every output keeps it (one line, nothing hidden, cut with a hash when long).
 */
import { createHash } from "node:crypto";
import { visibleLine } from "./terminal_text.ts";

/** UTF-16 units: at most 1,536 bytes of UTF-8. */
export const MAX_NAME_CHARS = 384;
const PLAIN = /^[ -~]*$/;
/** Room for an extension and a suffix within any filesystem's 255 bytes. */
const MAX_STEM_CHARS = 120;

export function shownName(name: string): string {
  return shownNameWithin(name, MAX_NAME_CHARS);
}

/** `name` as `shownName` keeps it, in at most `maxChars` (64 or more). */
export function shownNameWithin(name: string, maxChars: number): string {
  if (name.length <= maxChars && PLAIN.test(name)) return name;
  // NFC, so "e" plus a combining accent is marked as cleaned rather than shown as "é".
  // A lone surrogate becomes U+FFFD: JSON keeps it only as an escape strict readers refuse.
  const line = visibleLine(name).toWellFormed().normalize("NFC");
  if (line === name && line.length <= maxChars) return line;
  const hash = createHash("sha256").update(name).digest("hex").slice(0, 8);
  const cleaned = `${line}${line === "" ? "" : " "}(cleaned, sha256:${hash})`;
  if (cleaned.length <= maxChars) return cleaned;
  const tail = `… (${line.length.toLocaleString("en-US")} chars, sha256:${hash})`;
  let cut = maxChars - tail.length;
  if (/[\ud800-\udbff]/.test(line[cut - 1])) cut--;
  return line.slice(0, cut) + tail;
}

/** `name` as a file-name stem, unsafe characters `_`; hashed unless `unique` (its cleaned form its own). */
export function fileStem(name: string, unique: boolean): string {
  const cleaned = name.replace(/[^A-Za-z0-9.=-]+/g, "_");
  if (unique && cleaned.length <= MAX_STEM_CHARS && !/[A-Z]/.test(cleaned)) return cleaned;
  const hash = createHash("sha256").update(name).digest("hex").slice(0, 8);
  return `${cleaned.slice(0, MAX_STEM_CHARS - hash.length - 1)}-${hash}`;
}
