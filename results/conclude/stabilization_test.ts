import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { intervalSeries, SERIES_INTERVAL_MS } from "../../tests/fixtures/interval_series.ts";
import { detectStabilization, stabilizationText } from "./stabilization.ts";

const INTERVAL_MS = SERIES_INTERVAL_MS;
const series = intervalSeries;

/** Deterministic ±5% jitter around 1. */
const jitter = (i: number) => 1 + 0.05 * Math.sin(i * 12.9898);

Deno.test("a decaying warm-up is detected near the knee", () => {
  // JIT-style warm-up: 12 ms falling linearly to ~2 ms over 10 intervals, then flat at 2 ms with noise.
  const p50s = Array.from({ length: 40 }, (_, i) => (i < 10 ? 12 - i : 2 * jitter(i)));
  const stableMs = detectStabilization(series(p50s));
  assert(stableMs !== null);
  const kneeMs = 10 * INTERVAL_MS;
  assert(Math.abs(stableMs - kneeMs) <= 2 * INTERVAL_MS, `stable at ${stableMs} ms, knee at ${kneeMs} ms`);
});

Deno.test("a flat run is stable from 0", () => {
  assertEquals(detectStabilization(series(Array.from({ length: 20 }, (_, i) => 5 * jitter(i)))), 0);
});

Deno.test("small absolute drift under 0.2 ms counts as stable", () => {
  // 0.5 ms vs 0.3 ms is 40% but only 0.2 ms: sub-millisecond noise is not warm-up.
  const p50s = Array.from({ length: 20 }, (_, i) => (i < 5 ? 0.48 : 0.3));
  assertEquals(detectStabilization(series(p50s)), 0);
});

Deno.test("a run whose latency keeps growing never stabilizes", () => {
  assertEquals(detectStabilization(series(Array.from({ length: 30 }, (_, i) => 1.2 ** i))), null);
});

Deno.test("too few non-empty intervals give no verdict; empty intervals are skipped", () => {
  assertEquals(detectStabilization(series([1, 1, 1, 1, 1, 1, 1])), null);
  assertEquals(detectStabilization(series([1, null, 1, null, 1, 1, 1, 1, null, 1])), null);
  const gappy = series([9, null, 9, 9, 1, null, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
  assertEquals(detectStabilization(gappy), 4 * INTERVAL_MS);
});

Deno.test("a queue growing inside the band is no steady state: latency must be flat, not only close", () => {
  // A linear climb: the last third sits within ±20% of its own median, yet it keeps rising.
  const climbing = series(Array.from({ length: 12 }, (_, i) => 100 + 90 * i));
  assertEquals(detectStabilization(climbing), null);
  assert(
    stabilizationText({ stabilizedAtMs: null, intervals: climbing, targetRps: null }).startsWith("never"),
  );
});

Deno.test("throughput must be flat too", () => {
  const falling = series(Array.from({ length: 12 }, () => 5)).map((iv, i) => ({
    ...iv,
    requests: 200 - 15 * i,
  }));
  assertEquals(detectStabilization(falling), null);
  assertEquals(
    stabilizationText({ stabilizedAtMs: null, intervals: falling, targetRps: null }),
    "never (throughput kept drifting)",
  );
});

Deno.test("an open model served below its requested rate never stabilized, however flat", () => {
  const flat = series(Array.from({ length: 12 }, () => 5)); // 100 per 250 ms: 400 req/s served
  assertEquals(detectStabilization(flat, 400), 0);
  assertEquals(detectStabilization(flat, 1000), null);
  assertEquals(
    stabilizationText({ stabilizedAtMs: null, intervals: flat, targetRps: 1000 }),
    "never: served 400 of 1,000 req/s requested (a queue growing)",
  );
});

Deno.test("the not-judged text says what is short: intervals, or intervals with responses", () => {
  const six = series([1, 1, 1, 1, 1, 1]);
  assertEquals(
    stabilizationText({ stabilizedAtMs: null, intervals: six, targetRps: null }),
    "not judged: too few intervals: 6, 8 needed",
  );
  const gappy = series([1, null, 1, null, 1, 1, 1, 1, null, 1]);
  assertEquals(
    stabilizationText({ stabilizedAtMs: null, intervals: gappy, targetRps: null }),
    "not judged: too few intervals with responses: 7 of 10, 8 needed",
  );
  assertEquals(stabilizationText({ stabilizedAtMs: 2000, intervals: six, targetRps: null }), "after 2.00 s");
});
