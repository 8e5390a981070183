import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import * as hdr from "hdr-histogram-js";
import {
  clampUs,
  createHistogram,
  CURVE_PERCENTILES,
  decodeHistogram,
  encodeHistogram,
  histogramBuckets,
  k6QuantileUs,
  logHistogramBuckets,
  MAX_LATENCY_US,
  mergeEncoded,
  percentileCurve,
  summarizeMs,
} from "./histogram.ts";
import { PERCENTILE_FIELDS } from "./schema/keys.ts";

/** Deterministic pseudo-random latencies (us) with a long tail, so tests do not depend on Math.random. */
function latencies(count: number, seed: number): number[] {
  let state = seed;
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const u = state / 2147483648;
    out.push(Math.round(200 + 50_000 * u ** 6));
  }
  return out;
}

Deno.test("merging N encodings equals one histogram of all values", () => {
  const parts = [latencies(3000, 1), latencies(1000, 2), latencies(5000, 3), latencies(1, 4)];
  const single = createHistogram();
  const encodings = parts.map((values) => {
    const h = createHistogram();
    for (const v of values) {
      h.recordValue(v);
      single.recordValue(v);
    }
    return encodeHistogram(h);
  });
  const merged = mergeEncoded(encodings);
  assertEquals(merged.totalCount, 9001);
  assertEquals(merged.totalCount, single.totalCount);
  for (const p of [0, 2.5, 50, 90, 99, 99.9, 99.99, 100]) {
    assertEquals(merged.getValueAtPercentile(p), single.getValueAtPercentile(p), `p${p}`);
  }
  assertEquals(summarizeMs(merged), summarizeMs(single));
});

Deno.test("encode/decode round-trips and an empty list merges to an empty histogram", () => {
  const h = createHistogram();
  for (const v of [1, 10, 100, 1000, 10_000]) h.recordValue(v);
  const back = decodeHistogram(encodeHistogram(h));
  assertEquals(back.totalCount, 5);
  assertEquals(back.getValueAtPercentile(100), h.getValueAtPercentile(100));
  assertEquals(summarizeMs(back), summarizeMs(h));
  assertEquals(mergeEncoded([]).totalCount, 0);
});

Deno.test("clampUs keeps values recordable", () => {
  assertEquals(clampUs(0), 1);
  assertEquals(clampUs(-5), 1);
  assertEquals(clampUs(Number.NaN), 1);
  assertEquals(clampUs(12.6), 13);
  assertEquals(clampUs(MAX_LATENCY_US * 10), MAX_LATENCY_US);
  const h = createHistogram();
  h.recordValue(clampUs(Infinity));
  assertEquals(h.totalCount, 1);
});

Deno.test("summarizeMs reports ms and zeros (not NaN) when empty", () => {
  const empty = summarizeMs(createHistogram());
  for (const [field, value] of Object.entries(empty)) assertEquals(value, 0, field);

  const h = createHistogram();
  for (let us = 1000; us <= 100_000; us += 1000) h.recordValue(us); // 1..100 ms
  const s = summarizeMs(h);
  assertEquals(s.min, 1);
  assert(s.max >= 100 && s.max <= 100.1, `max ${s.max}`); // top of the HDR bucket holding 100 ms
  assert(Math.abs(s.mean - 50.5) < 0.1, `mean ${s.mean}`);
  assert(Math.abs(s.p50 - 50) < 0.1, `p50 ${s.p50}`);
  assert(Math.abs(s.p99 - 99) < 0.1, `p99 ${s.p99}`);
  assert(Math.abs(s.stdev - 28.87) < 0.1, `stdev ${s.stdev}`);
  assert(s.p2_5 <= s.p10 && s.p10 <= s.p25 && s.p25 <= s.p75 && s.p97_5 <= s.p999 && s.p9999 <= s.max);
});

Deno.test("summarizeMs and percentileCurve give the library's getters' numbers, decoded or not", () => {
  for (const [count, seed] of [[1, 3], [7, 5], [5000, 11], [20_000, 17]]) {
    const recorded = createHistogram();
    for (const us of latencies(count, seed)) recorded.recordValue(us);
    for (const h of [recorded, decodeHistogram(encodeHistogram(recorded))]) {
      const want: Record<string, number> = { min: h.minNonZeroValue, mean: h.mean, stdev: h.stdDeviation };
      for (const [key, p] of PERCENTILE_FIELDS) want[key] = h.getValueAtPercentile(p);
      want.max = h.getValueAtPercentile(100);
      const got = summarizeMs(h) as unknown as Record<string, number>;
      assertEquals(Object.keys(got), Object.keys(want));
      for (const key of Object.keys(want)) assertEquals(got[key], want[key] / 1000, key);
      assertEquals(
        percentileCurve(h).map((point) => point.latencyMs),
        CURVE_PERCENTILES.map((p) => h.getValueAtPercentile(p) / 1000),
      );
    }
  }
});

Deno.test("percentileCurve is log-spaced from p0 to p99.999 plus p100 and monotonic", () => {
  assertEquals(percentileCurve(createHistogram()), []);
  assert(CURVE_PERCENTILES.length >= 30 && CURVE_PERCENTILES.length <= 60, `${CURVE_PERCENTILES.length}`);
  assertEquals(CURVE_PERCENTILES.slice(0, 4), [0, 25, 50, 62.5]);
  for (const p of [75, 87.5, 90, 99, 99.9, 99.99, 99.999, 100]) assert(CURVE_PERCENTILES.includes(p), `${p}`);
  assertEquals(CURVE_PERCENTILES.at(-2), 99.999);

  const h = createHistogram();
  for (const v of latencies(10_000, 7)) h.recordValue(v);
  const curve = percentileCurve(h);
  assertEquals(curve.length, CURVE_PERCENTILES.length);
  for (let i = 1; i < curve.length; i++) assert(curve[i].latencyMs >= curve[i - 1].latencyMs);
  assertEquals(curve.at(-1), { percentile: 100, latencyMs: summarizeMs(h).max });
});

Deno.test("histogramBuckets splits min..max into equal buckets holding every value", () => {
  assertEquals(histogramBuckets(createHistogram()), []);
  const h = createHistogram();
  for (let ms = 1; ms <= 100; ms++) h.recordValue(ms * 1000);
  const buckets = histogramBuckets(h, 10);
  assertEquals(buckets.length, 10);
  assertEquals(buckets[0].fromMs, 1);
  assertEquals(buckets[9].toMs, summarizeMs(h).max);
  assertEquals(buckets.reduce((sum, b) => sum + b.count, 0), 100);
  for (const b of buckets) assert(b.count >= 9 && b.count <= 11, JSON.stringify(b));

  const one = createHistogram();
  one.recordValueWithCount(5000, 7);
  assertEquals(histogramBuckets(one), [{ fromMs: 5, toMs: summarizeMs(one).max, count: 7 }]);
});

Deno.test("logHistogramBuckets: equal counts per decade land in equal numbers of buckets", () => {
  assertEquals(logHistogramBuckets(createHistogram()), []);
  const h = createHistogram();
  // 1000 values in each decade 100 us..1 ms, 1..10 ms and 10..100 ms: a body and a long tail.
  for (const decadeUs of [100, 1000, 10_000]) {
    for (let k = 0; k < 1000; k++) h.recordValue(Math.round(decadeUs * 10 ** (k / 1000)));
  }
  const buckets = logHistogramBuckets(h, 4);
  assertEquals(buckets.length, 12);
  assertEquals(buckets[0].fromMs, 0.1);
  assertEquals(buckets.reduce((sum, b) => sum + b.count, 0), 3000);
  // Each bucket spans a factor 10^(1/4) and holds about a quarter of a decade's values.
  for (const b of buckets) assert(b.count > 200 && b.count < 300, JSON.stringify(b));
  for (let i = 1; i < buckets.length; i++) {
    assert(Math.abs(buckets[i].fromMs / buckets[i - 1].fromMs - 10 ** 0.25) < 1e-9);
  }
});

Deno.test("the fast counts index is the library's for every latency the recorders keep", () => {
  const fast = createHistogram() as unknown as { countsArrayIndex(v: number): number };
  const proto = Object.getPrototypeOf(fast) as { countsArrayIndex(v: number): number };
  assert(fast.countsArrayIndex !== proto.countsArrayIndex, "the fast index is installed");
  const values: number[] = [];
  for (let v = 0; v <= 70_000; v++) values.push(v);
  for (let bit = 10; bit < 32; bit++) {
    for (const d of [-2, -1, 0, 1, 2]) values.push(2 ** bit + d);
  }
  let seed = 7;
  for (let k = 0; k < 20_000; k++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    values.push(Math.floor((seed / 2 ** 31) * MAX_LATENCY_US));
  }
  values.push(MAX_LATENCY_US, 2 ** 32 - 1);
  for (const v of values) {
    if (v < 0) continue;
    const want = proto.countsArrayIndex.call(fast, v);
    if (fast.countsArrayIndex(v) !== want) {
      assertEquals({ v, index: fast.countsArrayIndex(v) }, { v, index: want });
    }
  }
  // Recorded through either, the same encoding.
  const a = createHistogram();
  const b = hdr.build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: MAX_LATENCY_US,
    numberOfSignificantValueDigits: 3,
    bitBucketSize: 32,
    useWebAssembly: false,
  });
  for (const v of values) {
    if (v < 1 || v > MAX_LATENCY_US) continue;
    a.recordValue(v);
    b.recordValue(v);
  }
  assertEquals(encodeHistogram(a), hdr.encodeIntoCompressedBase64(b));
});

Deno.test("k6QuantileUs is k6's trend percentile over 2, 3 and 10 samples, within the histogram's steps", () => {
  // k6 v1.8.1's own numbers for these samples (bench/k6_verdicts/hostile16_trend_reference.js, a Trend).
  const k6 = {
    two: {
      samples: [4.76, 65.1],
      0: 4.76,
      10: 10.794,
      50: 34.93,
      90: 59.066,
      95: 62.083,
      99.9: 65.0397,
      100: 65.1,
    },
    three: {
      samples: [3.2, 81.5, 12.7],
      0: 3.2,
      10: 5.1,
      50: 12.7,
      90: 67.74,
      95: 74.62,
      99.9: 81.3624,
      100: 81.5,
    },
    ten: {
      samples: [5.1, 7.9, 2.3, 44.6, 9.8, 120.4, 6.6, 15.2, 3.9, 11.1],
      ...{ 0: 2.3, 10: 3.74, 50: 8.85, 90: 52.18, 95: 86.29, 99.9: 119.7178, 100: 120.4 },
    },
  };
  for (const { samples, ...want } of Object.values(k6)) {
    const h = createHistogram();
    for (const ms of samples) h.recordValue(Math.round(ms * 1000));
    for (const [p, ms] of Object.entries(want)) {
      const got = k6QuantileUs(h, Number(p) / 100) / 1000;
      assert(Math.abs(got - ms) <= ms / 1000 + 0.001, `p(${p}) of ${samples}: k6 ${ms}, got ${got}`);
    }
  }
  // Requests failed unsent count as 0 ms before the answered ones: two zeros and [10, 20] have median 5.
  const h = createHistogram();
  h.recordValue(10_000), h.recordValue(20_000);
  assert(Math.abs(k6QuantileUs(h, 0.5, 2) - 5_000) <= 5, `${k6QuantileUs(h, 0.5, 2)}`);
  assertEquals(k6QuantileUs(createHistogram(), 0.5), 0);
});
