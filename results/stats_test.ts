import assert from "node:assert/strict";
import {
  batchMeans,
  changePct,
  findKnee,
  meanCi,
  median,
  overlapMargin,
  stdev,
  type SweepPoint,
  welchDiff,
} from "./stats.ts";

Deno.test("meanCi uses Student's t for few samples and ignores NaN", () => {
  const r = meanCi([10, 12, 14, Number.NaN]);
  assert.equal(r.mean, 12);
  assert.equal(r.n, 3);
  // sd = 2, se = 2/sqrt(3), t(2) = 4.303
  assert.ok(Math.abs(r.ci95! - 4.303 * 2 / Math.sqrt(3)) < 1e-9);
  assert.equal(meanCi([5]).ci95, null);
  assert.ok(Number.isNaN(meanCi([]).mean));
});

Deno.test("changePct is relative to the baseline and NaN without one", () => {
  assert.equal(changePct(200, 150), -25);
  assert.ok(Number.isNaN(changePct(0, 5)));
});

Deno.test("batchMeans skips warm-up, weights by requests and drops a short tail", () => {
  const samples = [0, 250, 500, 750, 1000, 1250, 1500, 1750, 2000].map((startMs, i) => ({
    startMs,
    durationMs: 250,
    value: i < 4 ? 100 : i % 2 ? 1 : 3,
    weight: i % 2 ? 1 : 3,
  }));
  // From 1000 ms: batch [1000..2000) = weighted (3*3 + 1*1 + 3*3 + 1*1) / 8 = 2.5; tail of 250 ms dropped.
  assert.deepEqual(batchMeans(samples, 1000, 1000), [2.5]);
});

Deno.test("overlapMargin: the CIs' half-widths summed, with at least three batches a side", () => {
  assert.equal(overlapMargin({ mean: 10, ci95: 1, n: 5 }, { mean: 13, ci95: 1, n: 5 }), 2);
  assert.equal(overlapMargin({ mean: 10, ci95: 2, n: 5 }, { mean: 13, ci95: 1.5, n: 5 }), 3.5);
  assert.equal(overlapMargin({ mean: 10, ci95: 1, n: 2 }, { mean: 30, ci95: 1, n: 5 }), null);
});

Deno.test("findKnee: last sustained rate of a rate sweep, Kneedle point otherwise", () => {
  const rate = [1000, 2000, 3000, 4000, 5000].map((x): SweepPoint => ({
    x,
    rps: Math.min(x, 3100),
    p99Ms: x <= 3000 ? 5 : 200,
    targetRps: x,
  }));
  assert.equal(findKnee(rate, true), 2);
  const healthy = rate.map((p) => ({ ...p, rps: p.x as number, p99Ms: 5 }));
  assert.equal(findKnee(healthy, true), null);
  const cpu = [0, 10, 20, 50, 100, 200].map((x): SweepPoint => ({
    x,
    rps: 10000 / (1 + x / 10),
    p99Ms: 1,
    targetRps: null,
  }));
  // Normalized distances to the chord: 0.46, 0.57, 0.62, 0.46 -> the point at x = 50.
  assert.equal(findKnee(cpu, false), 3);
  assert.equal(findKnee(cpu.slice(0, 2), false), null);
});

Deno.test("stdev uses n - 1 and is 0 below two values", () => {
  assert.equal(stdev([10, 12, 14]), 2);
  assert.equal(stdev([5]), 0);
});

Deno.test("welchDiff: a shift well beyond the spread differs, one within it does not", () => {
  const welchDiffers = (a: number[], b: number[]) => {
    const { diff, ci95 } = welchDiff(meanCi(a), meanCi(b));
    return ci95 === null ? null : Math.abs(diff) > ci95;
  };
  assert.equal(welchDiffers([100, 102, 98], [150, 149, 151]), true);
  assert.equal(welchDiffers([100, 110, 90], [104, 96, 108]), false);
  // Two repeats each: df 1-2, so only a large shift relative to the spread counts.
  assert.equal(welchDiffers([100, 101], [100.5, 101.5]), false);
  assert.equal(welchDiffers([100, 101], [200, 201]), true);
  assert.equal(welchDiffers([5, 5], [5, 5]), false);
  assert.equal(welchDiffers([5, 5], [6, 6]), true);
  assert.equal(welchDiffers([5], [6, 7]), null);
});

Deno.test("median: the middle value, the mean of the middle two for an even count, NaN and empty ignored", () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.equal(median([5, NaN, 1]), 3);
  assert.ok(Number.isNaN(median([])));
  assert.ok(Number.isNaN(median([NaN])));
});

Deno.test("welchDiff: the interval of a difference of two means with Welch's degrees of freedom", () => {
  const a = meanCi([10, 11, 12]), b = meanCi([20, 21, 22]);
  const { diff, ci95 } = welchDiff(a, b);
  assert.equal(diff, 10);
  // Both variances are 1/3 of the mean's: sqrt(2/3) * t(4 df) = 0.8165 * 2.776.
  assert.ok(Math.abs(ci95! - Math.sqrt(2 / 3) * 2.776) < 1e-9, String(ci95));
  assert.equal(welchDiff(meanCi([1]), b).ci95, null, "one value: no interval");
});
