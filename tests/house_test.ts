/**
 * @module
 * The house's size and naming rules (tests/house_rules.ts) on the repository: folders small enough to
 * read, families of prefixed names made folders, comments within the formatter's width. The last tests
 * feed each rule input made to break it, so none passes by seeing nothing.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { productFiles } from "./import_graph.ts";
import {
  crowdedFolders,
  ENV_CHANGES_ALLOWED,
  envChanges,
  formattedFiles,
  inParallelPass,
  prefixFamilies,
  wideComments,
} from "./house_rules.ts";

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

Deno.test("no test file of a parallel pass changes the process's environment, unless listed with why", async () => {
  const files = (await formattedFiles(ROOT)).filter(inParallelPass);
  const changes: string[] = [];
  for (const f of files) {
    if (!(f in ENV_CHANGES_ALLOWED)) {
      changes.push(...envChanges(f, await Deno.readTextFile(new URL(f, ROOT))));
    }
  }
  assertEquals(changes, []);
  assertEquals(files.length > 400, true, `only ${files.length} files read`);
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
  const env = [
    `Deno.env.set("HOME", "/tmp");`,
    `// Deno.env.set("HOME", "/tmp") in a comment`,
    `const code = "Deno.env.delete('A')"; // a child's code, in a string`,
    `process.env.K6_VUS = "2"; Deno.env.get("A");`,
    `if (process.env.A === "1") delete process.env["A"];`,
    `Deno.env.delete("A");`,
  ].join("\n");
  assertEquals(envChanges("a_test.ts", env), ["a_test.ts:1", "a_test.ts:4", "a_test.ts:5", "a_test.ts:6"]);
  assertEquals(
    ["a/b_test.ts", "tests/k6_run.ts", "tests/timing/x_test.ts", "tests/presets/y_test.ts", "cli/a.ts"]
      .map(inParallelPass),
    [true, true, false, false, false],
  );
});
