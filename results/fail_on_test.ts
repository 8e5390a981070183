import assert from "node:assert/strict";
import { parseFailOn } from "./fail_on.ts";
import { ConfigError } from "../validation/config_error.ts";

Deno.test("parseFailOn: the three forms, signs in the metric's bad direction", () => {
  assert.deepEqual(parseFailOn("p99 +10%"), {
    expression: "p99 +10%",
    metric: "p99",
    tolerance: 10,
    unit: "%",
  });
  assert.equal(parseFailOn("rps -5%").tolerance, -5);
  assert.deepEqual(parseFailOn("success -0.1pp").unit, "pp");
  assert.equal(parseFailOn("p50+2.5%").tolerance, 2.5);
});

Deno.test("parseFailOn: bad syntax, unknown metric, wrong sign and pp on latency are one-line ConfigErrors", () => {
  const cases: Array<[string, RegExp]> = [
    ["p99 10%", /not understood; write it like "p99 \+10%"/],
    ["p98 +10%", /unknown metric "p98"; use one of rps, p50, p99, success/],
    ["p99 -10%", /p99 gets worse upward; write \+10%/],
    ["rps +5%", /rps gets worse downward; write -5%/],
    ["p99 +1pp", /pp \(percentage points\) is for success only/],
  ];
  for (const [expression, message] of cases) {
    assert.throws(() => parseFailOn(expression), (err: Error) => {
      assert.ok(err instanceof ConfigError, expression);
      assert.match(err.message, message);
      assert.ok(!err.message.includes("\n"), "one line");
      return true;
    });
  }
});
