/**
 * @module
 * A user-given name as a file-name stem: unsafe characters become `_`, with a short hash unless unique.
 */
import { createHash } from "node:crypto";

/** Room for an extension and a suffix within any filesystem's 255 bytes. */
const MAX_STEM_CHARS = 120;

/** `unique`: the cleaned form of `name` is its own, case aside. */
export function fileStem(name: string, unique: boolean): string {
  const cleaned = name.replace(/[^A-Za-z0-9.=-]+/g, "_");
  if (unique && cleaned.length <= MAX_STEM_CHARS && !/[A-Z]/.test(cleaned)) return cleaned;
  const hash = createHash("sha256").update(name).digest("hex").slice(0, 8);
  return `${cleaned.slice(0, MAX_STEM_CHARS - hash.length - 1)}-${hash}`;
}
