import assert from "node:assert/strict";
import { parsePhases } from "./schedules.ts";
import { UsageError } from "../usage_error.ts";

Deno.test("parsePhases reads Artillery-like phases, ramps and pauses", () => {
  assert.deepEqual(parsePhases("30s@10,60s@20,60s@100,30s@50->200"), [
    { durationMs: 30_000, ratePerSec: 10 },
    { durationMs: 60_000, ratePerSec: 20 },
    { durationMs: 60_000, ratePerSec: 100 },
    { durationMs: 30_000, ratePerSec: 50, rampToPerSec: 200 },
  ]);
  assert.deepEqual(parsePhases(" 500ms@0 , 1m@2.5 "), [
    { durationMs: 500, ratePerSec: 0 },
    { durationMs: 60_000, ratePerSec: 2.5 },
  ]);
  assert.deepEqual(parsePhases("10@0->5"), [{ durationMs: 10_000, ratePerSec: 0, rampToPerSec: 5 }]);
});

Deno.test("parsePhases rejects malformed phases with one line naming the fix", () => {
  const bad = [
    "",
    "30s",
    "30s@",
    "@10",
    "10x@5",
    "0s@5",
    "30s@-1",
    "30s@ten",
    "30s@1->",
    "30s@1->2->3",
    "10s@0,5s@0",
  ];
  for (const text of bad) {
    assert.throws(() => parsePhases(text), UsageError, text);
  }
  assert.throws(() => parsePhases("30s@x"), {
    message: '--phases "30s@x": "x" in "30s@x" is not a rate (req/s >= 0); ' +
      "write DURATION@RATE or DURATION@FROM->TO, e.g. 30s@10,60s@50->200",
  });
  assert.throws(() => parsePhases("5s@0"), /every phase is a pause/);
});
