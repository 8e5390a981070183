/**
 * @module
 * A user-given name as a file-name stem in the output folder: unsafe characters become `_`, a short hash
 * of the original is added unless the caller knows it is unique (or when it has capitals, for
 * case-insensitive file systems), and it is cut to `MAX_STEM_CHARS`. Pure.
 */
import { createHash } from "node:crypto";

/** Longest stem kept: room for an extension and a suffix within any filesystem's 255 bytes. */
export const MAX_STEM_CHARS = 120;

/**
 * `name` as a file name's stem (see the module comment); `unique`: its cleaned form is its own, case aside.
 */
export function fileStem(name: string, unique: boolean): string {
  const cleaned = name.replace(/[^A-Za-z0-9.=-]+/g, "_");
  if (unique && cleaned.length <= MAX_STEM_CHARS && !/[A-Z]/.test(cleaned)) return cleaned;
  const hash = createHash("sha256").update(name).digest("hex").slice(0, 8);
  return `${cleaned.slice(0, MAX_STEM_CHARS - hash.length - 1)}-${hash}`;
}
