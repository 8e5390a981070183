import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { evaluateThresholds, parseThreshold } from "./threshold.ts";
import { AbortWatch } from "./abort.ts";
import type { RunResult } from "../mod.ts";

const run = {
  name: "calls",
  requests: 960,
  successRate: 0.96,
  errors: { "grpc UNAVAILABLE": 30, timeout: 10 },
  statusCodes: { "200": 960 },
  endpoints: [],
} as unknown as RunResult;

Deno.test("a kind in the braces judges only that kind's failures: their count, their share of the sends", () => {
  const rules = [
    "errors{kind:grpc UNAVAILABLE}<=30",
    'errorRate{kind:"grpc UNAVAILABLE"}<1%',
    "errorRate{kind:timeout}<1.5%",
    "errors{kind:grpc DEADLINE_EXCEEDED}==0",
  ].map(parseThreshold);
  assertEquals(rules[1].kind, "grpc UNAVAILABLE");
  assertEquals(rules[1].selector, undefined);
  assertEquals(evaluateThresholds(rules, [run]).map((r) => [r.ok, r.actual]), [
    [true, 30],
    [false, 0.03],
    [true, 0.01],
    [true, 0],
  ]);
});

Deno.test("a kind that does not exist, a metric it cannot take, a window, an abort: named with the fix", () => {
  throws(
    () => parseThreshold("errors{kind:grpc UNAVAILBLE}<1"),
    /no error kind "grpc UNAVAILBLE"; did you mean "grpc UNAVAILABLE"\?/,
  );
  throws(
    () => parseThreshold("p99{kind:timeout}<1ms"),
    /use errors\{kind:\.\.\.\} or errorRate\{kind:\.\.\.\}, not p99/,
  );
  throws(() => parseThreshold("errorRate{kind:timeout}<1% over 10s"), /whole run, not "over" windows/);
  const rule = parseThreshold("errorRate{kind:timeout}<1%");
  throws(
    () => new AbortWatch([{ threshold: rule, delayMs: 0 }], 250),
    /not an endpoint's or an error kind's/,
  );
});

Deno.test("a gRPC status's kind counts the calls answered with it, which are responses", () => {
  const answered = {
    ...run,
    requests: 960,
    errors: { timeout: 40 },
    statusCodes: { "200": 900, "grpc UNAVAILABLE": 60 },
  } as unknown as RunResult;
  const rules = ["errors{kind:grpc UNAVAILABLE}==60", "errorRate{kind:grpc UNAVAILABLE}<=6%"].map(
    parseThreshold,
  );
  assertEquals(evaluateThresholds(rules, [answered]).map((r) => [r.ok, r.actual]), [[true, 60], [
    true,
    0.06,
  ]]);
});
