/**
 * @module
 * The house rules a folder listing and the source text can check, as pure functions so
 * tests/house_test.ts runs them on the repository and on made-up input: no folder holds more than
 * `MAX_FOLDER_FILES` product files, no folder holds a family of `MIN_FAMILY` files named with one prefix
 * (`script_*.ts`: such a family is a folder of its own, the prefix dropped), and no comment runs past
 * `COMMENT_COLUMNS` (the formatter wraps code at that width, never comments), and no test file of a
 * parallel pass changes the process's environment (`envChanges`). Run as a program
 * (`deno task check` does), it prints the comment lines that are too wide and exits 1 if there are any.
 */
import { codeText } from "./code_text.ts";

/** Most product files one folder holds. */
export const MAX_FOLDER_FILES = 30;
/** Fewest files sharing a name prefix that make a family (one folder, the prefix dropped). */
export const MIN_FAMILY = 5;
/** The formatter's line width (deno.json `fmt.lineWidth`), which comments keep too. */
export const COMMENT_COLUMNS = 110;

const folderOf = (file: string) => file.includes("/") ? file.slice(0, file.lastIndexOf("/") + 1) : "./";

/** Folders holding more than `max` of `files` (paths from the root), as `folder: count`. */
export function crowdedFolders(files: readonly string[], max = MAX_FOLDER_FILES): string[] {
  const counts = new Map<string, number>();
  for (const f of files) counts.set(folderOf(f), (counts.get(folderOf(f)) ?? 0) + 1);
  return [...counts].filter(([, n]) => n > max).map(([folder, n]) => `${folder}: ${n} files`).sort();
}

/** Name prefixes (up to the first `_`) shared by `min` or more files of one folder, as `folder/prefix_*`. */
export function prefixFamilies(files: readonly string[], min = MIN_FAMILY): string[] {
  const counts = new Map<string, number>();
  for (const f of files) {
    const name = f.slice(folderOf(f) === "./" ? 0 : folderOf(f).length);
    const cut = name.indexOf("_");
    if (cut <= 0) continue;
    const family = `${folderOf(f)}${name.slice(0, cut)}_*`;
    counts.set(family, (counts.get(family) ?? 0) + 1);
  }
  return [...counts].filter(([, n]) => n >= min).map(([family, n]) => `${family} (${n} files)`).sort();
}

/** The lines of `source` whose comment runs past `columns`, as `file:line`. */
export function wideComments(file: string, source: string, columns = COMMENT_COLUMNS): string[] {
  const code = codeText(source, { strings: true }).split("\n");
  const wide: string[] = [];
  source.split("\n").forEach((line, i) => {
    if (line.length <= columns) return;
    // Past the width, a character the code reading blanked (and the source has) is comment text.
    for (let c = columns; c < line.length; c++) {
      if (line[c] !== " " && code[i][c] === " ") return void wide.push(`${file}:${i + 1}`);
    }
  });
  return wide;
}

/** Test folders whose files run one at a time, a pass each (tests/suite.ts): outside the rule below. */
const ONE_AT_A_TIME = ["tests/presets/", "tests/timing/"];

/**
 * Files of a parallel pass that may change the process's environment, each with its reason: none. The
 * files of such a pass run as workers of one process, so a change reaches every other file's runs (and
 * their children) while it holds; give a child its variables, or the code under test its values.
 */
export const ENV_CHANGES_ALLOWED: Readonly<Record<string, string>> = {};

/** Whether `file` runs in a parallel pass: a test file, or a module under tests/, not run one at a time. */
export const inParallelPass = (file: string) =>
  (file.endsWith("_test.ts") || file.startsWith("tests/")) && !ONE_AT_A_TIME.some((d) => file.startsWith(d));

/** The lines of `source` whose code changes the process's environment, as `file:line`. */
export function envChanges(file: string, source: string): string[] {
  const change = /Deno\.env\.(set|delete)\(|process\.env(\.[\w$]+|\[[^\]]*\])\s*=(?!=)|delete\s+process\.env/;
  return codeText(source).split("\n").flatMap((line, i) => change.test(line) ? [`${file}:${i + 1}`] : []);
}

/** Folders the formatter skips (deno.json `fmt.exclude`, the build outputs; node_modules anywhere). */
const NOT_FORMATTED = [
  "report/assets/vendor",
  "bench/k6_public",
  "bench/k6_verdicts/community",
  "dist",
  "out",
];

/** Every .ts file under `root` the formatter reads, as paths from the root. */
export async function formattedFiles(root: URL): Promise<string[]> {
  const out: string[] = [];
  async function walk(dir: string): Promise<void> {
    for await (const entry of Deno.readDir(new URL(dir || ".", root))) {
      const path = dir + entry.name;
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      if (entry.isDirectory && !NOT_FORMATTED.includes(path)) await walk(path + "/");
      else if (entry.isFile && path.endsWith(".ts")) out.push(path);
    }
  }
  await walk("");
  return out.sort();
}

if (import.meta.main) {
  const root = new URL("../", import.meta.url);
  const wide: string[] = [];
  for (const f of await formattedFiles(root)) {
    wide.push(...wideComments(f, await Deno.readTextFile(new URL(f, root))));
  }
  for (const w of wide) console.error(`${w}: a comment past column ${COMMENT_COLUMNS}`);
  if (wide.length > 0) Deno.exit(1);
}
