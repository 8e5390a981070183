/**
 * @module
 * loadlab's cache of converted scripts (k6 scripts, locustfiles), each written whole so a concurrent
 * loadlab never imports half a file.
 */
import { createHash } from "node:crypto";
import { dirname, join } from "node:path";
import { writeTextAtomicSync } from "../../system/output_file.ts";

/** The cache folder of `kind`'s conversions (`$XDG_CACHE_HOME/loadlab/KIND`, else `~/.cache/...`). */
export function conversionCacheDir(kind = "k6"): string {
  const base = Deno.env.get("XDG_CACHE_HOME") ?? join(Deno.env.get("HOME") ?? Deno.cwd(), ".cache");
  return join(base, "loadlab", kind);
}

/** The path in `kind`'s cache folder named by a hash of `text`: one per content. */
export function cachePathOf(kind: string, text: string): string {
  return join(conversionCacheDir(kind), createHash("sha256").update(text).digest("hex").slice(0, 24));
}

/** Writes `code` at `to`, its folder made: beside it, then renamed. */
export function writeWhole(to: string, code: string): void {
  Deno.mkdirSync(dirname(to), { recursive: true });
  writeTextAtomicSync(to, code);
}
