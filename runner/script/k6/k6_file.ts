/**
 * @module
 * A k6 script file converted once and kept: the converted session script is written under loadlab's
 * cache folder (`$XDG_CACHE_HOME/loadlab/k6`, else `~/.cache/loadlab/k6`), in a folder named by a hash
 * of the texts of the script and its local modules and of this runtime's place, each file with its own
 * name, so an error's `file:line` reads as the k6 file's. The same texts convert once.
 * `sessionScriptPath` is what the plan, the workers and setup/teardown load in place of a k6 script; a
 * `deno.json` beside it lends it loadlab's imports for its type check.
 */
import { createHash } from "node:crypto";
import * as acorn from "acorn";
import { dirname, join } from "node:path";
import { isK6Source } from "./convert.ts";
import { convertK6Files, readK6Files } from "./k6_local_modules.ts";
import { RUNTIME_URL } from "./k6_modules.ts";

/** Bumped when the conversion changes, so older cached conversions are not reused. */
const CONVERSION_VERSION = "10";

/** Where converted scripts are kept. */
export function k6CacheDir(): string {
  const base = Deno.env.get("XDG_CACHE_HOME") ?? join(Deno.env.get("HOME") ?? Deno.cwd(), ".cache");
  return join(base, "loadlab", "k6");
}

/** Whether the file at `path` is a k6 script (a `.js` file importing `k6` or `k6/...`). */
export function isK6File(path: string): boolean {
  if (!/\.(js|mjs)$/.test(path)) return false;
  try {
    return isK6Source(Deno.readTextFileSync(path));
  } catch {
    return false;
  }
}

/**
 * The session script to load for `path`: the path itself unless it is a k6 script, else its conversion
 * (converted now unless cached), its local modules converted beside it at the same places relative to it.
 * Throws `K6ConvertError` naming each place that cannot be converted.
 */
export function sessionScriptPath(path: string): string {
  if (!isK6File(path)) return path;
  const files = readK6Files(path);
  const hashed = createHash("sha256").update(`${CONVERSION_VERSION}\0${RUNTIME_URL}`);
  for (const f of files) hashed.update(`\0${f.path}\0${f.source}`);
  const root = join(k6CacheDir(), hashed.digest("hex").slice(0, 24));
  // Every file under the folder at its own absolute path: `./lib/x.js` and `../x.js` resolve as beside it.
  const out = join(root, path);
  try {
    Deno.statSync(out);
    return out;
  } catch {
    // not converted yet
  }
  const converted = convertK6Files(files);
  Deno.mkdirSync(dirname(out), { recursive: true });
  writeImportMap(dirname(out));
  // The script last, each written beside and renamed: a concurrent loadlab never imports half a file.
  for (const [file, code] of converted) {
    const at = join(root, file);
    Deno.mkdirSync(dirname(at), { recursive: true });
    const partial = `${at}.${Deno.pid}.partial`;
    Deno.writeTextFileSync(partial, code);
    Deno.renameSync(partial, at);
  }
  return out;
}

/**
 * A `deno.json` beside a conversion with loadlab's own imports, so `deno check` of the converted script (run
 * from its folder) resolves the npm packages the runtime's modules use (protobufjs for k6/net/grpc). A
 * compiled loadlab has no deno.json to read and checks no script: then none is written.
 */
function writeImportMap(folder: string): void {
  let imports: unknown;
  try {
    imports = JSON.parse(Deno.readTextFileSync(new URL("../../../deno.json", import.meta.url))).imports;
  } catch {
    return;
  }
  Deno.writeTextFileSync(join(folder, "deno.json"), JSON.stringify({ imports }, null, 2));
}

/** Whether the k6 script at `path` imports k6 module `name` (`k6/net/grpc`: its load speaks HTTP/2). */
export function importsK6Module(path: string, name: string): boolean {
  // deno-lint-ignore no-explicit-any
  const ast: any = acorn.parse(Deno.readTextFileSync(path), { ecmaVersion: "latest", sourceType: "module" });
  // deno-lint-ignore no-explicit-any
  return ast.body.some((s: any) => s.type === "ImportDeclaration" && s.source.value === name);
}
