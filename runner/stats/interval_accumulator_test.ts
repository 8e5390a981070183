import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import {
  addSample,
  addToComplete,
  compactCounts,
  completeInterval,
  emptyAccumulator,
  intervalResult,
  settleInterval,
} from "./aggregate.ts";
import { idleSample } from "./sample.ts";
import { createHistogram, encodeHistogram } from "../../results/histogram.ts";

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
  addSample({ ...idleSample(3, 2, 4, false), errors: { timeout: 2, reset: 1 }, serverBoundSends: 5 }, slot);
  addSample({ ...idleSample(3, 1, 4, false), errors: { timeout: 1 }, lateSends: 2 }, slot);
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

Deno.test("a complete interval settles its workers' encodings into one, after the load", () => {
  const slot = emptyAccumulator();
  addSample(latencySample(0, 1000, 10), slot);
  addSample(latencySample(0, 3000, 10), slot);
  const done = completeInterval(slot);
  assert(!("histograms" in done), "no open accumulator left");
  assertEquals([done.pending.length, done.histogramEncoded], [2, null]);
  settleInterval(done);
  assertEquals([done.requests, done.statusCodes, done.latency.p50 < 1.01, done.latency.max > 2.99], [
    20,
    { "200": 20 },
    true,
    true,
  ]);
  assertEquals([done.pending.length, typeof done.histogramEncoded], [0, "string"]);
});

Deno.test("one worker's encoding is kept as it is, not merged again", () => {
  const sample = latencySample(0, 2000, 10);
  const done = completeInterval(addSample(sample));
  settleInterval(done);
  assertEquals(done.histogramEncoded, sample.histogram);
});

Deno.test("a late sample merges exactly while the encoding is kept; its counts always add", () => {
  const done = completeInterval(addSample(latencySample(0, 1000, 10)));
  addToComplete(done, addSample(latencySample(0, 5000, 10)), true);
  assertEquals([done.requests, done.statusCodes["200"], done.connections], [20, 20, 2]);
  settleInterval(done);
  assert(done.latency.max > 4.99, `${done.latency.max}`);
  done.histogramEncoded = null;
  addToComplete(done, addSample(latencySample(0, 9000, 10)), false);
  assertEquals([done.requests, done.connections], [30, 2]);
  settleInterval(done);
  assert(done.latency.max < 5.01, "latencies of a dropped encoding stay those it had");
});

Deno.test("counts copied compactly are equal to the original", () => {
  assertEquals(compactCounts({ "200": 3, "404": 1 }), { "200": 3, "404": 1 });
});
