/**
 * @module
 * Words that drift, kept out of what people read. Code and docs say what and why in words, so no tracker
 * numbers ("issue 12", "(#34)") and no "STYLE rule N" (a numbered list that lives outside the repository
 * and is renumbered over time); an upstream bug may be named by its repository and number only beside the
 * words that say what the bug is. And the studies loadlab reproduces are "published studies" with
 * "expected" results in everything a user reads (README, docs, help, report and terminal text, the
 * presets): never "seed", a word from how the project started. The dated lab notebook (docs/lab/) is
 * left as written; tests and their fixtures may name data as they like.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join, relative } from "node:path";

const ROOT = new URL("../", import.meta.url).pathname;
const SKIP_DIRS = new Set(["node_modules", ".git", "dist", "out", "vendor", "generated", "lab", "fixtures"]);

async function filesUnder(dir: string, keep: (name: string) => boolean): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory && !SKIP_DIRS.has(entry.name)) out.push(...await filesUnder(path, keep));
    else if (entry.isFile && keep(entry.name)) out.push(path);
  }
  return out.sort();
}

/** Tracker numbers and numbered style rules; an `owner/repo#N` reference to an upstream bug is allowed. */
const DRIFTING = /STYLE rules? \d|\b[Ii]ssues? #?\d+|\(#\d+\)/g;
/** "seed" as a word (Redis keys being "seeded" and `seedRedis` are another sense and stay). */
const SEED = /\bseeds?\b/gi;

/** `file:line: match` for every match of `re` in `text`. */
export function findings(file: string, text: string, re: RegExp): string[] {
  return [...text.matchAll(re)].map((m) => `${file}:${text.slice(0, m.index).split("\n").length}: ${m[0]}`);
}

Deno.test("no tracker numbers or numbered style rules in code and docs", async () => {
  const files = await filesUnder(ROOT, (n) => /\.(ts|md|ya?ml|js)$/.test(n) && !n.endsWith("_test.ts"));
  const found: string[] = [];
  for (const file of files) {
    found.push(...findings(relative(ROOT, file), await Deno.readTextFile(file), DRIFTING));
  }
  assertEquals(found, []);
});

Deno.test("user-facing text says 'expected' and 'published study', not 'seed'", async () => {
  const userFacing = [
    join(ROOT, "README.md"),
    ...await filesUnder(join(ROOT, "docs"), (n) => n.endsWith(".md")),
    ...await filesUnder(join(ROOT, "scenarios/presets"), (n) => /\.ya?ml$/.test(n)),
    ...(await Promise.all(
      ["cli", "report", "results"].map((d) =>
        filesUnder(join(ROOT, d), (n) => n.endsWith(".ts") && !n.endsWith("_test.ts"))
      ),
    )).flat(),
  ];
  const found: string[] = [];
  for (const file of userFacing) {
    found.push(...findings(relative(ROOT, file), await Deno.readTextFile(file), SEED));
  }
  assertEquals(found, []);
});

Deno.test("the word rules catch what they are for", () => {
  // Built from parts, so a plain search of the tree for a numbered style rule does not land on this test.
  const styleRule = ["STYLE", "rule", "3"].join(" ");
  const text = `see issue 12, ${styleRule} and (#34); denoland/deno#12291 says what upstream bug it is`;
  assertEquals(findings("x.md", text, DRIFTING), [
    "x.md:1: issue 12",
    `x.md:1: ${styleRule}`,
    "x.md:1: (#34)",
  ]);
  assertEquals(findings("x.md", "a seed study\nSeeds: 2; seeded keys", SEED), [
    "x.md:1: seed",
    "x.md:2: Seeds",
  ]);
});
