/**
 * A script's checks past the most distinct names a step keeps: each still counts, under one name, so a
 * failure there is never dropped from the totals (k6's `checks` rate, thresholds on it, success shown).
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { OTHER_CHECKS, ScriptRecorder } from "./recorder.ts";

Deno.test("checks past the 100 names a step keeps count under one name, their failures too", () => {
  const recorder = new ScriptRecorder("s.js");
  const step = recorder.step("GET /");
  for (let i = 0; i < 300; i++) recorder.check(step, `c${i}`, i < 100);
  recorder.check(step, "c0", true);
  const [sample] = recorder.take();
  const checks = sample.steps[0].checks;
  assertEquals(checks.length, 101);
  assertEquals(checks[100], { name: OTHER_CHECKS, passed: 0, failed: 200 });
  assertEquals(checks[0], { name: "c0", passed: 2, failed: 0 });
  // 301 checks made, 200 of them failed: the totals held 101 passed and none failed.
  const total = (k: "passed" | "failed") => checks.reduce((sum, c) => sum + c[k], 0);
  assertEquals([total("passed"), total("failed")], [101, 200]);
});
