/**
 * @module
 * loadlab's cache of converted scripts (k6 scripts, locustfiles), each written whole so a concurrent
 * loadlab never imports half a file.
 */
import { createHash } from "node:crypto";
import { dirname, isAbsolute, join } from "node:path";
import { OutputError, writeTextAtomicSync } from "../../system/output_file.ts";

/** The cache folder of `kind`'s conversions (`$XDG_CACHE_HOME/loadlab/KIND`, else `~/.cache/...`). */
export function conversionCacheDir(kind = "k6"): string {
  // An empty or relative value is unset, as the XDG spec reads it: the cache is never under the cwd's name.
  const [xdg, home] = ["XDG_CACHE_HOME", "HOME"].map((name) => Deno.env.get(name) ?? "").map((v) =>
    isAbsolute(v) ? v : undefined
  );
  const base = xdg ?? join(home ?? Deno.cwd(), ".cache");
  return join(base, "loadlab", kind);
}

/** A conversion's place under any cache base: `loadlab/KIND/HASH/`. */
const CONVERSION = /\/loadlab\/(k6|locust|artillery)\/[0-9a-f]{24}\//;

/**
 * Which format `path` is loadlab's conversion of (`k6`, `locust`, `artillery`), else null: read from the
 * path alone, so the answer holds when `XDG_CACHE_HOME` changed since the conversion was written.
 */
export function conversionKindOf(path: string): string | null {
  return CONVERSION.exec(path)?.[1] ?? null;
}

/** The path in `kind`'s cache folder named by a hash of `text`: one per content. */
export function cachePathOf(kind: string, text: string): string {
  return join(conversionCacheDir(kind), createHash("sha256").update(text).digest("hex").slice(0, 24));
}

/** Makes a folder of the cache; one it cannot make (HOME unset or read-only) names the variable to set. */
export function makeCacheFolder(dir: string): void {
  try {
    Deno.mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw new OutputError(
      `cannot make loadlab's script cache ${dir}: ${(err as Error).message}; set XDG_CACHE_HOME to a ` +
        "folder this user can write",
    );
  }
}

/** Writes `code` at `to`, its folder made: beside it, then renamed. */
export function writeWhole(to: string, code: string): void {
  makeCacheFolder(dirname(to));
  writeTextAtomicSync(to, code);
}
