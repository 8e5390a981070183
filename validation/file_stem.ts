/**
 * @module
 * A name a user gave (a run's, made of target, load and sweep values) as the stem of a file name in the
 * output folder: characters a file name should not hold become `_`, and unless the caller knows the
 * cleaned name cannot be another's (`unique`), a short hash of the name as given is added, so two names
 * that clean alike (`a_b/once`, `a/b_once`) never write one file. A name with a capital letter gets the
 * hash too: macOS and Windows ignore case in file names, so the runs of a word sweep over `A` and `a`
 * wrote one request log, the second over the first. At most `MAX_STEM_CHARS` long, cut with the hash: a
 * 300-character sweep value made a name the filesystem refused (255 bytes), failing the run. Pure.
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
