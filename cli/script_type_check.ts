/**
 * @module
 * A session script's `deno check` in its folder (for its deno.json), started early (early_start.ts). A
 * passed check is noted by what it read (script, local imports, folder config, Deno's version): the same
 * again, at any path, skips `deno check`, over a second of CPU for a graph Deno has not checked.
 */
import { createHash } from "node:crypto";
import { dirname, join, resolve } from "node:path";
import { ScriptStopped } from "../runner/script/host/host.ts";
import { inGroupOfItsOwn, signalGroup } from "../targets/process_group.ts";
import { conversionCacheDir, conversionKindOf } from "../runner/script/cache_dir.ts";
import { readTextOrNull } from "../system/path_lookup.ts";

type Check = ReturnType<typeof spawnCheck>;

/** The check `startEarlyTypeCheck` began, with the text it checked; the first check of its path takes it. */
let early: { path: string; text: string; check: Check } | null = null;

/** Starts `deno check` of the session script at `path` (absolute) before the command reads it. */
export function startEarlyTypeCheck(path: string): void {
  early?.check.end();
  early = null;
  const text = readTextOrNull(path);
  // A k6 script is checked as its conversion, which loadlab writes and never type-checks.
  if (text !== null && !Deno.build.standalone && !/\bk6\b/.test(text) && !passedBefore(passKey(path))) {
    early = { path, text, check: spawnCheck(path, []) };
  }
}

/** The early check of `path` when it checked the file's current text, else null (an early one is ended). */
function takeEarly(path: string): Check | null {
  const taken = early;
  early = null;
  if (taken === null) return null;
  if (taken.path === path && readTextOrNull(path) === taken.text) return taken.check;
  taken.check.end();
  return null;
}

/** `deno check`'s errors as `file:line:col: message`; none for a conversion loadlab wrote. */
export async function typeProblems(path: string, signal?: AbortSignal): Promise<string[]> {
  // A conversion (k6, Artillery, a locustfile's) is JavaScript loadlab wrote, importing its checked runtime.
  if (Deno.build.standalone || conversionKindOf(path) !== null || path.endsWith(".py.js")) {
    return [];
  }
  const key = passKey(path);
  if (passedBefore(key)) return [];
  let text = await checkOutput(takeEarly(path) ?? spawnCheck(path, []), signal);
  if (text !== null && text.includes("Could not find a matching package")) {
    text = await checkOutput(spawnCheck(path, ["--node-modules-dir=none"]), signal);
  }
  if (text === null && key !== null) noteQuietly(key);
  return text === null ? [] : problemsOf(text, dirname(path));
}

/** Notes a passed check at `key`; a cache that cannot be written only costs the next run its check. */
function noteQuietly(key: string): void {
  try {
    Deno.mkdirSync(dirname(key), { recursive: true });
    Deno.writeTextFileSync(key, "");
  } catch { /* checked again next time */ }
}

function passedBefore(key: string | null): boolean {
  return key !== null && readTextOrNull(key) !== null;
}

/** A hash of what a check of `path` reads; null where a text is unreadable or an import not local. */
function passKey(path: string): string | null {
  const hash = createHash("sha256").update(`${Deno.version.deno} ${Deno.version.typescript}\0`);
  const seen = new Set<string>();
  const read = (file: string): boolean => {
    const text = readTextOrNull(file);
    if (text === null || /<reference|@(ts|deno)-types|\brequire\s*\(|\bimport\s*\(/.test(text)) return false;
    hash.update(`${text}\0`);
    if (seen.has(file)) return true;
    seen.add(file);
    for (const [, specifier] of text.matchAll(/\b(?:from|import)\s*["']([^"']*)["']/g)) {
      if (specifier.startsWith("node:")) continue;
      hash.update(`${specifier}\0`);
      if (!/^\.{0,2}\//.test(specifier) || !read(resolve(dirname(file), specifier))) return false;
    }
    return true;
  };
  if (!read(path)) return null;
  for (let dir = dirname(path);; dir = dirname(dir)) {
    for (const name of ["deno.json", "deno.jsonc", "package.json"]) {
      hash.update(`${name}\0${readTextOrNull(join(dir, name)) ?? ""}\0`);
    }
    if (dir === dirname(dir)) break;
  }
  return join(conversionCacheDir("checked"), hash.digest("hex"));
}

function spawnCheck(path: string, flags: string[]) {
  const { command, args, grouped } = inGroupOfItsOwn(Deno.execPath(), ["check", "--quiet", ...flags, path]);
  const child = new Deno.Command(command, {
    args,
    cwd: dirname(path),
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const output = child.output();
  output.catch(() => {}); // an untaken early check's end is nobody's error
  const end = () => {
    try {
      if (!grouped || !signalGroup(child.pid, "SIGKILL")) child.kill("SIGKILL");
    } catch { /* it has ended: an early check is ended whether or not it ran to its end */ }
  };
  return { output, end };
}

/** The check's output when it failed, null when it passed; `ScriptStopped` when `signal` ended it. */
async function checkOutput(check: Check, signal?: AbortSignal): Promise<string | null> {
  signal?.addEventListener("abort", check.end, { once: true });
  if (signal?.aborted) check.end();
  try {
    const out = await check.output;
    if (signal?.aborted) throw new ScriptStopped("the script's type check");
    if (out.success) return null;
    return new TextDecoder().decode(out.stderr) + new TextDecoder().decode(out.stdout);
  } finally {
    signal?.removeEventListener("abort", check.end);
  }
}

/** Each `TS... [ERROR]: message` of `deno check`'s output with the place its `at file://...` line gives. */
export function problemsOf(text: string, folder: string): string[] {
  const problems: string[] = [];
  const lines = text.split("\n");
  for (let k = 0; k < lines.length; k++) {
    const head = /(?:TS\d+ )?\[ERROR\]: (.*)$/.exec(lines[k]) ?? /^error: (.*)$/.exec(lines[k]);
    if (head === null) continue;
    let place = "";
    for (let j = k + 1; j < Math.min(lines.length, k + 12); j++) {
      const at = /at (file:\/\/\S+?):(\d+):(\d+)/.exec(lines[j]);
      if (at === null) continue;
      const file = decodeURIComponent(new URL(at[1]).pathname);
      place = `${file.startsWith(folder + "/") ? file.slice(folder.length + 1) : file}:${at[2]}:${at[3]}: `;
      break;
    }
    if (head[1] !== "Type checking failed.") problems.push(place + head[1].trim());
  }
  return problems.length > 0 ? problems : [text.trim().split("\n")[0]];
}
