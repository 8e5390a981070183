import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { evaluateThresholds, parseThreshold } from "./threshold.ts";
import type { RunResult } from "../mod.ts";

const run = {
  name: "attack",
  rps: 1200,
  requests: 12000,
  successRate: 0.995,
  errors: { timeout: 3 },
  statusCodes: { "200": 11900, "503": 100 },
  lateSends: 0,
  droppedSends: 0,
  latencyMs: { p99: 180, p50: 4, mean: 5, max: 900 },
} as unknown as RunResult;

Deno.test("thresholds parse units and evaluate per run", () => {
  assertEquals(parseThreshold("p99<0.2s").value, 200);
  assertEquals(parseThreshold("p99 < 200000us").value, 200);
  assertEquals(parseThreshold("success>99%").value, 0.99);
  const results = evaluateThresholds(
    ["p99<200ms", "rps>=1500", "success>99%", "errors==0", "failedStatus<=100", "non2xx<=100", "other:p50<1"]
      .map(parseThreshold),
    [run],
  );
  assertEquals(results.map((r) => [r.expression, r.ok, r.actual]), [
    ["p99<200ms", true, 180],
    ["rps>=1500", false, 1200],
    ["success>99%", true, 0.995],
    ["errors==0", false, 3],
    ["failedStatus<=100", true, 100],
    ["non2xx<=100", true, 100],
  ]);
});

Deno.test("bad thresholds name the problem and the fix", () => {
  throws(() => parseThreshold("p98<1ms"), /unknown metric "p98"/);
  throws(() => parseThreshold("p99 less 5"), /not understood; write it like/);
  // A line break reached the terminal's table of thresholds and broke it.
  throws(() => parseThreshold("p99<200ms\nX"), /a threshold is one line of text/);
  throws(() => parseThreshold("rps>5ms"), /plain number/);
  throws(() => parseThreshold("p99<5%"), /latency takes us, ms or s/);
});
