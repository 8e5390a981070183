import assert from "node:assert/strict";
import { makeSeed000, makeSingleAttack } from "../tests/fixtures/make_results.ts";
import { mergeResults } from "./merge_files.ts";

Deno.test("mergeResults keeps unique names and prefixes clashing ones with the file label", () => {
  const a = makeSingleAttack(), b = makeSingleAttack(), c = makeSeed000(1, 5);
  a.thresholds = [{ expression: "p99 < 10ms", run: "attack", actual: 6, ok: true }];
  const merged = mergeResults([{ label: "before", results: a }, { label: "after", results: b }, {
    label: "seed",
    results: c,
  }]);
  const names = merged.runs.map((r) => r.name);
  assert.deepEqual(names.slice(0, 2), ["before: attack", "after: attack"]);
  assert.ok(names.includes("redis-cache/high#0"), "unique names unchanged");
  assert.equal(new Set(names).size, names.length);
  assert.equal(merged.thresholds.find((t) => t.expression === "p99 < 10ms")?.run, "before: attack");
  assert.match(merged.experiment.name, / \+ /);
});

Deno.test("mergeResults returns a single file unchanged", () => {
  const a = makeSingleAttack();
  assert.equal(mergeResults([{ label: "x", results: a }]), a);
});
