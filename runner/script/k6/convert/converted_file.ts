/**
 * @module
 * A k6 script file converted once and kept in loadlab's cache, in a folder named by a hash of its texts,
 * each file under its own name so an error's `file:line` reads as the k6 file's.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { asModule, isK6Source } from "./convert.ts";
import { convertK6Files, readK6Files } from "./local_modules.ts";
import { RUNTIME_URL } from "./modules.ts";
import { importsFrom, parseOrNull } from "./refusals.ts";
import { conversionCacheDir, makeCacheFolder, writeWhole } from "../../cache_dir.ts";

/** Bumped when the conversion changes, so older cached conversions are not reused. */
const CONVERSION_VERSION = "43";

/**
 * Whether `path` is a regular file of k6's (a FIFO or device is never read here: the loader names it), or
 * imports or re-exports one by a relative path (an entry point's `export * from "./scenarios/index.js"`).
 */
export function isK6File(path: string, seen = new Set<string>()): boolean {
  if (!/\.(js|mjs|ts|mts)$/.test(path) || seen.has(path)) return false;
  seen.add(path);
  try {
    if (!Deno.statSync(path).isFile) return false;
    const text = Deno.readTextFileSync(path);
    // Its k6 imports tell even through types; a default function or options only once they are stripped.
    if (isK6Source(text)) return true;
    const module = asModule(text, path);
    if (isK6Source(module)) return true;
    const local = (parseOrNull(module)?.body ?? []).map((s: { source?: { value?: unknown } }) =>
      s.source?.value
    );
    return local.some((from: unknown) =>
      typeof from === "string" && from.startsWith(".") && isK6File(join(dirname(path), from), seen)
    );
  } catch {
    return false;
  }
}

/** The session script to load for `path`: itself unless it is a k6 script, else its (cached) conversion. */
export function sessionScriptPath(path: string): string {
  if (!isK6File(path)) return path;
  const files = readK6Files(path);
  const hashed = createHash("sha256").update(`${CONVERSION_VERSION}\0${RUNTIME_URL}`);
  for (const f of files) hashed.update(`\0${f.path}\0${f.source}`);
  const root = join(conversionCacheDir(), hashed.digest("hex").slice(0, 24));
  // Every file under the folder at its own absolute path: `./lib/x.js` and `../x.js` resolve as beside it.
  const out = join(root, path);
  if (existsSync(out)) return out;
  const converted = convertK6Files(files);
  makeCacheFolder(dirname(out));
  writeImportMap(dirname(out));
  // The script last: it is kept only once every file it imports is.
  for (const [file, code] of converted) writeWhole(join(root, file), code);
  return out;
}

/** A `deno.json` beside a conversion, so `deno check` of it resolves the runtime's npm packages. */
function writeImportMap(folder: string): void {
  let imports: unknown;
  try {
    imports = JSON.parse(Deno.readTextFileSync(new URL("../../../../deno.json", import.meta.url))).imports;
  } catch {
    return;
  }
  Deno.writeTextFileSync(join(folder, "deno.json"), JSON.stringify({ imports }, null, 2));
}

/** Whether the k6 script at `path` imports k6 module `name` (`k6/net/grpc`: its load speaks HTTP/2). */
export function importsK6Module(path: string, name: string): boolean {
  // A script that does not parse imports nothing: its conversion refuses it at its line.
  const ast = parseOrNull(asModule(Deno.readTextFileSync(path), path));
  return ast !== null && importsFrom(ast, (from) => from === name);
}
