import assert from "node:assert/strict";
import { parseFailOn, parseFailOnList } from "./fail_on.ts";
import { ConfigError } from "../validation/config_error.ts";

Deno.test("parseFailOn: the three forms, signs in the metric's bad direction", () => {
  assert.deepEqual(parseFailOn("p99 +10%"), {
    expression: "p99 +10%",
    metric: "p99",
    tolerance: 10,
    unit: "%",
    limit: "+10%",
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
    ["p99 +1pp", /pp \(percentage points\) is for success and dropped only/],
    ["p99 +1,5%", /not understood; a comma is no decimal point or thousands separator here: write 1\.5/],
    ["p99 +١٠%", /not understood; write its digits as 0-9/],
  ];
  assert.equal(parseFailOn("rps \u22125%").tolerance, -5, "a minus sign pasted from a page");
  assert.throws(() => parseFailOnList("p99 +1,5%, rps -5%"), /"p99 \+1,5%": not understood; a comma/);
  for (const [expression, message] of cases) {
    assert.throws(() => parseFailOn(expression), (err: Error) => {
      assert.ok(err instanceof ConfigError, expression);
      assert.match(err.message, message);
      assert.ok(!err.message.includes("\n"), "one line");
      return true;
    });
  }
});

Deno.test("parseFailOn: what users guess reads as the rule, or says what to write", () => {
  for (
    const [guess, rule] of [["p99>+50%", "p99 +50%"], ["p(99) +50%", "p99 +50%"], ["P99 < +50%", "p99 +50%"]]
  ) {
    const { expression: _, ...parsed } = parseFailOn(guess);
    const { expression: __, ...wanted } = parseFailOn(rule);
    assert.deepEqual(parsed, wanted, guess);
  }
  const cases: Array<[string, RegExp]> = [
    [
      "p99 +20ms",
      /a tolerance is relative to the baseline: % \(pp for success and dropped\), not ms; write it like "p99 \+10%"/,
    ],
    ["p99<250ms", /an absolute limit is a threshold: --threshold "p99<250ms" on run or attack/],
    ["rps>=1k", /an absolute limit is a threshold: --threshold "rps>=1k"/],
    [
      "errors > 1%",
      /unknown metric "errors"; use one of rps, p50, p99, success, dropped \(errors: "success -1pp"; a script.s own: --threshold\)/,
    ],
    ["rps -100%", /rps cannot fall by 100% or more, so the rule never fires; write under 100/],
    ["success -100pp", /success cannot fall by 100pp or more/],
  ];
  assert.equal(parseFailOn("rps \u22125%").tolerance, -5, "a minus sign pasted from a page");
  for (const [expression, message] of cases) {
    assert.throws(() => parseFailOn(expression), (err: Error) => message.test(err.message), expression);
  }
});
