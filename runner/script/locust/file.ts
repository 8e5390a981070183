/**
 * @module
 * A locustfile's conversion kept under loadlab's cache folder, as k6 scripts' are, in a folder named by a
 * hash of it, as `NAME.py.js` (a session's error names `NAME.py:LINE`).
 */
import { basename, dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { convertLocust, type LocustConversion } from "./convert.ts";
import { listenHere } from "./runtime.ts";
import { existsSync } from "node:fs";
import { cachePathOf, writeWhole } from "../cache_dir.ts";

/** The locustfile at `path` converted (throws `LocustConvertError` naming each place it cannot be). */
export function convertLocustFile(path: string): LocustConversion {
  return convertLocust(Deno.readTextFileSync(path), basename(path), dirname(path));
}

/** The session module to load for locustfile `path` (its folder's modules it imports beside it). */
export function locustSessionPath(path: string): string {
  const { code, modules } = convertLocustFile(path);
  // Named by the conversion itself: a conversion that changes is written anew.
  const texts = [import.meta.url, path, code, ...modules.flatMap((m) => [m.path, m.code])];
  const out = join(cachePathOf("locust", texts.join("\0")), `${basename(path)}.js`);
  if (existsSync(out)) return out;
  for (const m of modules) writeWhole(join(dirname(out), `${m.path}.js`), m.code);
  writeWhole(out, code);
  return out;
}

/** Locustfile `path`'s module loaded in the command's process, its listeners heard there (`listenHere`). */
export async function loadLocustListeners(path: string): Promise<() => Promise<void>> {
  await import(pathToFileURL(locustSessionPath(path)).href);
  return await listenHere();
}
