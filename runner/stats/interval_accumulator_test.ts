import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { addSample, emptyAccumulator, intervalResult } from "./interval_accumulator.ts";
import { idleSample } from "./sample.ts";

Deno.test("samples add into one interval: counters, errors by kind, server-bound sends and gauges", () => {
  const slot = emptyAccumulator();
  addSample(slot, { ...idleSample(3, 2, 4, false), errors: { timeout: 2, reset: 1 }, serverBoundSends: 5 });
  addSample(slot, { ...idleSample(3, 1, 4, false), errors: { timeout: 1 }, lateSends: 2 });
  const iv = intervalResult(750, 250, slot, false);
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
