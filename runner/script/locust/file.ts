/**
 * @module
 * A locustfile's conversion kept under loadlab's cache folder, as k6 scripts' are, in a folder named by a
 * hash of it, as `NAME.py.js` (a session's error names `NAME.py:LINE`).
 */
import { basename, dirname, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { convertLocust, type LocustConversion } from "./convert.ts";
import { listenHere } from "./runtime.ts";
import { existsSync } from "node:fs";
import { cachePathOf, writeWhole } from "../cache_dir.ts";

/**
 * The locustfile at `path` converted (throws `LocustConvertError` naming each place it cannot be). Several
 * (`a.py,b.py`, as `-f` gives them) are one module importing each one's user classes and shape, in order,
 * as Locust merges them.
 */
export function convertLocustFile(path: string): LocustConversion {
  const files = path.split(",").map((f) => resolve(f));
  if (files.length === 1) return convertLocust(Deno.readTextFileSync(path), basename(path), dirname(path));
  // Their common folder: each file is a module of it (`sub/x.py` is `sub.x`).
  const dir = files.map(dirname).reduce((a, b) => {
    while (!join(b, "/").startsWith(join(a, "/"))) a = dirname(a);
    return a;
  });
  const seen = new Set<string>();
  const imports = files.map((f) => {
    const { users, shape } = convertLocust(Deno.readTextFileSync(f), basename(f), dirname(f));
    const names = [...users.map((u) => u.name), shape ?? ""].filter((n) => n !== "" && !seen.has(n));
    names.forEach((n) => seen.add(n));
    const module = relative(dir, f).slice(0, -".py".length).replaceAll("/", ".");
    return names.length === 0 ? `import ${module}` : `from ${module} import ${names.join(", ")}`;
  });
  return convertLocust(imports.join("\n") + "\n", SEVERAL, dir);
}

/** The name of the module that imports several locustfiles. */
const SEVERAL = "__locustfiles__.py";

/** The session module to load for locustfile `path` (its folder's modules it imports beside it). */
export function locustSessionPath(path: string): string {
  const { code, modules } = convertLocustFile(path);
  // Named by the conversion itself: a conversion that changes is written anew.
  const texts = [import.meta.url, path, code, ...modules.flatMap((m) => [m.path, m.code])];
  const name = path.includes(",") ? SEVERAL : basename(path);
  const out = join(cachePathOf("locust", texts.join("\0")), `${name}.js`);
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
