import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { evaluateThresholds, parseThreshold } from "./threshold.ts";
import { createHistogram, encodeHistogram } from "../histogram.ts";
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
  throws(() => parseThreshold("p99<1k"), /latency takes us, ms or s, not k/);
  assertEquals(parseThreshold("rps>=1.5k").value, 1500);
  throws(() => parseThreshold("p99<5%"), /latency takes us, ms or s/);
});

Deno.test("k6's rules count every request sent in http_reqs and a request refused before it was sent as 0 ms", () => {
  const refused = {
    ...run,
    rps: 0,
    requests: 0,
    durationSec: 2,
    successRate: 0,
    errors: { connect: 4, tls: 2 },
    statusCodes: {},
    latencyMs: { p95: 0, p99: 0, p50: 0, mean: 0, max: 0 },
  } as unknown as RunResult;
  const rules = [
    "http_reqs: count==6",
    "http_reqs: rate>=3",
    "http_req_duration: p(95)<2000",
    "http_req_duration: avg==0",
    "http_req_duration: min>=15",
  ];
  const judged = (r: RunResult) => evaluateThresholds(rules.map(parseThreshold), [r]).map((t) => t.ok);
  assertEquals(judged(refused), [true, true, true, true, false]);
  // Answered ones beside them: the refused are the lowest values, the answered keep their own.
  const mixed = { ...run, errors: { connect: 12000 } } as unknown as RunResult;
  const values = evaluateThresholds(
    ["http_reqs: count==24000", "http_req_duration: avg<=2.5", "http_req_duration: max==900"].map(
      parseThreshold,
    ),
    [mixed],
  );
  assertEquals(values.map((t) => [t.ok, t.actual]), [[true, 24000], [true, 2.5], [true, 900]]);
  // setup()'s one request before it threw, the load never run: over the run's duration, as the summary.
  const setupOnly = { ...run, requests: 1, rps: 0, durationSec: 0.004, errors: {} } as unknown as RunResult;
  const rate = evaluateThresholds([parseThreshold("http_reqs: rate>0.5")], [setupOnly])[0];
  assertEquals([rate.ok, rate.actual], [true, 250]);
  // A timeout's duration is not kept: with none answered, the latency stays unmeasured.
  const timedOut = { ...refused, errors: { timeout: 6 } } as unknown as RunResult;
  assertEquals(
    Number.isNaN(evaluateThresholds([parseThreshold("http_req_duration: p(95)<2000")], [timedOut])[0].actual),
    true,
  );
});

Deno.test("a k6 rule whose submetric no request reached is judged on 0, as k6 judges it; loadlab's fails", () => {
  const rules = [
    "http_reqs{name:other}: count==0",
    "http_req_duration{name:other}: p(95)<100",
    "p99{name:other}<1s",
  ];
  const judged = evaluateThresholds(rules.map(parseThreshold), [run]);
  assertEquals(judged.map((t) => [t.ok, t.unmatched]), [[true, true], [true, true], [false, true]]);
  // A refused request's error_code is not kept per endpoint: unmeasured rather than 0.
  const code = evaluateThresholds([parseThreshold("http_reqs{error_code:1212}: count==0")], [run]);
  assertEquals(code[0].ok, false);
  // A request refused before it was sent counts under its own endpoint: another's submetric stays empty.
  const refused = { ...run, errors: { connect: 5 } } as unknown as RunResult;
  const unsent = ["http_req_duration{name:x}: avg<10", "http_req_failed{name:x}: rate<0.01"];
  assertEquals(evaluateThresholds(unsent.map(parseThreshold), [refused]).map((t) => t.ok), [true, true]);
});

Deno.test("a k6 rule on any percentile reads k6's trend between samples: two answers, 4.76 and 65.1 ms", () => {
  const h = createHistogram();
  h.recordValue(4_760), h.recordValue(65_100);
  const two = {
    ...run,
    requests: 2,
    errors: {},
    statusCodes: { "200": 2 },
    histogramEncoded: encodeHistogram(h),
  };
  const rules = [
    "http_req_duration: med>34.9",
    "http_req_duration: p(10)<10.85",
    "http_req_duration: p(33)>24",
  ];
  const judged = evaluateThresholds(rules.map(parseThreshold), [two as unknown as RunResult]);
  // k6 v1.8.1 printed med 34.93 and p(10) 10.794 for them (bench/k6_verdicts/hostile16_trend_reference.js).
  assertEquals(judged.map((t) => t.ok), [true, true, true]);
  throws(() => parseThreshold("p42<200ms"), /unknown metric "p42"/);
});
