import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import {
  addSample,
  addToComplete,
  compactCounts,
  completeInterval,
  emptyAccumulator,
  intervalResult,
  sampleAccumulator,
} from "./interval_accumulator.ts";
import { idleSample } from "./sample.ts";
import { createHistogram, encodeHistogram } from "./histogram.ts";

function latencySample(index: number, latencyUs: number, count: number) {
  const h = createHistogram();
  for (let i = 0; i < count; i++) h.recordValue(latencyUs);
  return {
    ...idleSample(index, 0, 1, false),
    requests: count,
    statusCodes: { "200": count },
    histogram: encodeHistogram(h),
  };
}

Deno.test("samples add into one interval: counters, errors by kind, server-bound sends and gauges", () => {
  const slot = emptyAccumulator();
  addSample(slot, { ...idleSample(3, 2, 4, false), errors: { timeout: 2, reset: 1 }, serverBoundSends: 5 });
  addSample(slot, { ...idleSample(3, 1, 4, false), errors: { timeout: 1 }, lateSends: 2 });
  const iv = intervalResult(750, 250, completeInterval(slot), false);
  assertEquals([iv.errors, iv.errorKinds, iv.serverBoundSends, iv.lateSends], [
    4,
    { timeout: 3, reset: 1 },
    5,
    2,
  ]);
  assertEquals([iv.inFlight, iv.connections, iv.histogramEncoded], [3, 8, undefined]);
});

Deno.test("an interval no worker reported is all zeros, its errors by kind known and empty", () => {
  const iv = intervalResult(0, 250, undefined, true);
  assertEquals([iv.requests, iv.errors, iv.errorKinds, iv.serverBoundSends], [0, 0, {}, 0]);
  assertEquals(typeof iv.histogramEncoded, "string");
});

Deno.test("a complete interval keeps one merged encoding and no worker's", () => {
  const slot = emptyAccumulator();
  addSample(slot, latencySample(0, 1000, 10));
  addSample(slot, latencySample(0, 3000, 10));
  const done = completeInterval(slot);
  assert(!("histograms" in done), "no per-worker encodings");
  assertEquals([done.requests, done.statusCodes, done.latency.p50 < 1.01, done.latency.max > 2.99], [
    20,
    { "200": 20 },
    true,
    true,
  ]);
});

Deno.test("a late sample merges exactly while the encoding is kept; its counts always add", () => {
  const done = completeInterval(sampleAccumulator(latencySample(0, 1000, 10)));
  addToComplete(done, sampleAccumulator(latencySample(0, 5000, 10)), true);
  assertEquals([done.requests, done.statusCodes["200"], done.connections], [20, 20, 2]);
  assert(done.latency.max > 4.99, `${done.latency.max}`);
  done.histogramEncoded = null;
  addToComplete(done, sampleAccumulator(latencySample(0, 9000, 10)), false);
  assertEquals([done.requests, done.connections], [30, 2]);
  assert(done.latency.max < 5.01, "latencies of a dropped encoding stay those it had");
});

Deno.test("counts copied compactly are equal to the original", () => {
  assertEquals(compactCounts({ "200": 3, "404": 1 }), { "200": 3, "404": 1 });
});
