import assert from "node:assert/strict";
import { parseDurationMs } from "./flag_values.ts";
import { UsageError } from "./usage_error.ts";

Deno.test("parseDurationMs accepts the forms load-tool users type", () => {
  const cases: Array<[string, number]> = [
    ["500ms", 500],
    ["10s", 10_000],
    ["1.5s", 1_500],
    [".5s", 500],
    ["1m", 60_000],
    ["2h", 7_200_000],
    ["1m30s", 90_000],
    ["1h2m3s4ms", 3_723_004],
    ["90", 90_000],
    ["0.25", 250],
    ["0", 0],
  ];
  for (const [input, expectedMs] of cases) assert.equal(parseDurationMs(input), expectedMs, input);
});

Deno.test("parseDurationMs rejects anything else with one line naming the flag and the fix", () => {
  for (
    const input of [
      "10x",
      "",
      "s",
      "-5s",
      "10 s",
      "1.2.3s",
      "10sec",
      "1e3",
      "NaN",
      "10s5",
      "1h1h",
      "30s1m",
      "5ms1s",
      " 10s ",
      "10s\t",
    ]
  ) {
    assert.throws(() => parseDurationMs(input, "-d"), UsageError, input);
  }
  assert.throws(
    () => parseDurationMs("10x", "-d"),
    {
      name: "UsageError",
      message:
        '-d "10x": not a duration; use a number with ms, s, m or h, each unit once, largest first, e.g. -d 10s',
    },
  );
  assert.throws(
    () => parseDurationMs("soon"),
    {
      message:
        '"soon": not a duration; use a number with ms, s, m or h, each unit once, largest first, e.g. 10s',
    },
  );
});
