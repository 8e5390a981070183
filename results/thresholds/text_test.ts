import assert from "node:assert/strict";
import { makeCpuSleepQuick } from "../../tests/fixtures/make_results.ts";
import { formatThresholdActual, thresholdLine } from "./text.ts";

Deno.test("the actual is printed in the rule's unit, for every metric and unit", () => {
  const cases: Array<[string, number, string]> = [
    ["success >= 99%", 0.7333, "73.33%"],
    ["success>=0.99", 0.7333, "0.7333"],
    ["errorRate<1%", 0.004, "0.40%"],
    ["p99<100ms", 84.204, "84.20 ms"],
    ["p99<100", 84.204, "84.20 ms"],
    ["p99<500us", 0.734, "734 us"],
    ["cached/high: p99 < 2s", 1234.5, "1.234 s"],
    ["rps>=1000", 1234.567, "1234.57"],
    ["requests > 10", 12345, "12,345"],
    ["dropped==0", 0, "0"],
    ["p99<1s", Number.NaN, "–"],
  ];
  for (const [expression, actual, shown] of cases) {
    assert.equal(formatThresholdActual(expression, actual), shown, expression);
  }
});

Deno.test("a gate on a flagged run says so, passed or failed", () => {
  const results = makeCpuSleepQuick();
  const [passed, failed] = results.thresholds;
  assert.equal(
    thresholdLine(passed, results.runs),
    `PASS  p99<100ms  (single/cpuTime/query.ms=0: 25.61 ms) — on a generator-bound run`,
  );
  assert.match(
    thresholdLine(failed, results.runs),
    /^FAIL {2}success >= 99% {2}\(.*: 73\.33%\) — on a dropped 99\.7%, server errors 22% run$/,
  );
  assert.equal(
    thresholdLine({ ...passed, run: "elsewhere" }, results.runs),
    "PASS  p99<100ms  (elsewhere: 25.61 ms)",
  );
});
