import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { createHistogram } from "../histogram.ts";
import {
  bucketIndex,
  denseBuckets,
  NATIVE_BUCKET_WIDTH,
  NATIVE_SCHEMA,
  nativeHistogram,
  spansAndDeltas,
} from "./native_histogram.ts";

/** The upper bound of a Prometheus bucket. */
const upper = (index: number) => 2 ** (index / 2 ** NATIVE_SCHEMA);

/** A quantile read from native buckets as Prometheus reads it: the bucket holding the rank. */
function bucketOfQuantile(native: ReturnType<typeof nativeHistogram>, q: number): number {
  const rank = q * native.count;
  let seen = 0;
  for (let i = 0; i < native.indexes.length; i++) {
    seen += native.counts[i];
    if (seen >= rank) return native.indexes[i];
  }
  return native.indexes.at(-1)!;
}

Deno.test("bucketIndex: a value lies in (upper(i-1), upper(i)], bounds included in their own bucket", () => {
  for (const valueSec of [1e-6, 3.7e-5, 0.001, 0.0044, 0.25, 1, 2, 3599]) {
    const i = bucketIndex(valueSec);
    ok(valueSec <= upper(i) * (1 + 1e-12) && valueSec > upper(i - 1), `${valueSec} in bucket ${i}`);
  }
  assertEquals(bucketIndex(1), 0);
  assertEquals(bucketIndex(2), 256);
  assertEquals(bucketIndex(0.5), -256);
  assertEquals(bucketIndex(2, 0), 1);
  assertEquals(bucketIndex(3, 0), 2);
});

Deno.test("nativeHistogram: counts are exact and every quantile is within one bucket of HDR's", () => {
  const h = createHistogram();
  // Latencies from 20 µs to 80 ms, skewed like a real run.
  let seed = 7;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  for (let i = 0; i < 20_000; i++) h.recordValue(Math.round(20 + 80_000 * random() ** 4));
  const native = nativeHistogram(h);
  assertEquals(native.count, 20_000);
  assertEquals(native.counts.reduce((a, b) => a + b, 0), 20_000);
  ok(native.indexes.every((v, i) => i === 0 || v > native.indexes[i - 1]), "ascending indexes");
  ok(Math.abs(native.sumSec - (h.mean * h.totalCount) / 1e6) / native.sumSec < 1e-3, "sum from the HDR mean");
  for (const q of [0.5, 0.9, 0.99, 0.999]) {
    const hdrSec = h.getValueAtPercentile(q * 100) / 1e6;
    const bucket = bucketOfQuantile(native, q);
    ok(hdrSec <= upper(bucket) && hdrSec > upper(bucket - 1), `p${q * 100}: HDR's value is in the bucket`);
    ok(
      (upper(bucket) - upper(bucket - 1)) / upper(bucket - 1) <= NATIVE_BUCKET_WIDTH * 1.0001,
      "one bucket wide",
    );
  }
  assertEquals(nativeHistogram(createHistogram()).count, 0);
});

Deno.test("spansAndDeltas and denseBuckets: Prometheus' sparse form and OTLP's dense one", () => {
  const native = { indexes: [-3, -2, 0, 5, 6], counts: [1, 4, 2, 2, 7] };
  assertEquals(spansAndDeltas(native), {
    spans: [{ offset: -3, length: 2 }, { offset: 1, length: 1 }, { offset: 4, length: 2 }],
    deltas: [1, 3, -2, 0, 5],
  });
  // OTLP names a bucket by its lower bound: index one below Prometheus'.
  assertEquals(denseBuckets(native), { offset: -4, bucketCounts: [1, 4, 0, 2, 0, 0, 0, 0, 2, 7] });
  assertEquals(denseBuckets({ indexes: [], counts: [] }), { offset: 0, bucketCounts: [] });
});
