/**
 * @module
 * Keeps the load models' rules in their records: outside runner/load/ (the models' runs) and
 * results/load_models.ts (the facts every layer reads), no product code compares a model field with a
 * model's name, switches on it, or lists names to test it against. The last test feeds the rule made-up
 * branches, so it does not pass by seeing nothing.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { codeText, lineAt } from "./code_text.ts";
import { productFiles } from "./import_graph.ts";
import { LOAD_MODELS } from "../results/schema/keys.ts";

const ROOT = new URL("../", import.meta.url);
const NAME = `"(?:${LOAD_MODELS.join("|")})"`;
const MODEL = String.raw`[\w$.?]*\bmodel\b`;
const BRANCHES = [
  new RegExp(String.raw`${MODEL}\s*[!=]==?\s*${NAME}`, "g"),
  new RegExp(String.raw`${NAME}\s*[!=]==?\s*${MODEL}`, "g"),
  new RegExp(String.raw`\[\s*${NAME}(?:\s*,\s*${NAME})*\s*,?\s*\]\s*\.includes\(\s*${MODEL}\s*\)`, "g"),
];

/** The lines of `source` that branch on a load model's name (`case` counts inside a switch on a model). */
export function modelBranches(source: string): number[] {
  const code = codeText(source, { strings: true });
  const lines = new Set<number>();
  for (const re of BRANCHES) for (const m of code.matchAll(re)) lines.add(lineAt(code, m.index));
  for (const m of code.matchAll(new RegExp(String.raw`switch\s*\(\s*${MODEL}\s*\)\s*\{`, "g"))) {
    let depth = 1, i = m.index + m[0].length;
    for (; i < code.length && depth > 0; i++) depth += code[i] === "{" ? 1 : code[i] === "}" ? -1 : 0;
    const body = code.slice(m.index, i);
    for (const c of body.matchAll(new RegExp(String.raw`\bcase\s+${NAME}`, "g"))) {
      lines.add(lineAt(code, m.index + c.index));
    }
  }
  return [...lines].sort((a, b) => a - b);
}

Deno.test("no product code outside the models' records branches on a model's name", async () => {
  const found: string[] = [];
  for (const path of await productFiles(ROOT)) {
    if (path.startsWith("runner/load/") || path === "results/load_models.ts") continue;
    const lines = modelBranches(await Deno.readTextFile(new URL(path, ROOT)));
    for (const line of lines) found.push(`${path}:${line}`);
  }
  assertEquals(found, []);
});

Deno.test("the model-branch rule sees comparisons, lists and switches, not actions or comments", () => {
  const source = [
    'if (run.model === "rate") go();',
    'const open = "throughput" !== config.model;',
    'if (["count", "connections"].includes(c.model)) go();',
    "switch (attack.model) {",
    '  case "ramping-connections":',
    "    break;",
    "}",
    'if (change.action === "rate") go();',
    "switch (metric.type) {",
    '  case "rate":',
    "}",
    '// run.model === "rate"',
    'const label = "model === \\"rate\\"";',
  ].join("\n");
  assertEquals(modelBranches(source), [1, 2, 3, 5]);
});
