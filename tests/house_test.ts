/**
 * @module
 * The house's size and naming rules (tests/house_rules.ts) on the repository: folders small enough to
 * read, families of prefixed names made folders, comments within the formatter's width. The last tests
 * feed each rule input made to break it, so none passes by seeing nothing.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { productFiles } from "./import_graph.ts";
import { crowdedFolders, formattedFiles, prefixFamilies, wideComments } from "./house_rules.ts";

const ROOT = new URL("../", import.meta.url);

Deno.test("no folder holds more than 30 product files", async () => {
  assertEquals(crowdedFolders(await productFiles(ROOT)), []);
});

Deno.test("no folder holds five product files named with one prefix", async () => {
  assertEquals(prefixFamilies(await productFiles(ROOT)), []);
});

Deno.test("no comment runs past column 110", async () => {
  const files = await formattedFiles(ROOT);
  const wide: string[] = [];
  for (const f of files) wide.push(...wideComments(f, await Deno.readTextFile(new URL(f, ROOT))));
  assertEquals(wide, []);
  assertEquals(files.length > 500, true, `only ${files.length} files read`);
});

Deno.test("each rule reports input made to break it", () => {
  const many = Array.from({ length: 31 }, (_, i) => `cli/f${i}.ts`);
  assertEquals(crowdedFolders([...many, "cli/run/a.ts", "main.ts"]), ["cli/: 31 files"]);
  assertEquals(crowdedFolders(many.slice(1)), []);
  const family = ["a", "b", "c", "d", "e"].map((x) => `runner/script/script_${x}.ts`);
  assertEquals(prefixFamilies([...family, "runner/script/script.ts", "runner/script_f.ts"]), [
    "runner/script/script_* (5 files)",
  ]);
  assertEquals(prefixFamilies(family.slice(1)), []);
  const long = "x".repeat(100);
  const source = [
    `// ${long} ${long}`, // a line comment past the width
    `const s = "${long}${long}";`, // a long string is code: the formatter's to judge
    `f(); // ${long} ${long}`, // a trailing comment past the width
    ` * ${"y".repeat(107)}`, // 110 columns exactly
  ].join("\n");
  assertEquals(wideComments("a.ts", source), ["a.ts:1", "a.ts:3"]);
});
