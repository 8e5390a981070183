import { deepStrictEqual as assertEquals, throws as assertThrows } from "node:assert/strict";
import { deflateSync } from "node:zlib";
import * as hdr from "hdr-histogram-js";
import {
  addEncoded,
  createHistogram,
  decodeHistogram,
  encodeHistogram,
  type Histogram,
  MAX_LATENCY_US,
  summarizeMs,
} from "./histogram.ts";
import { readV2Counts } from "./histogram_v2.ts";

/** A bound on indexes no test encoding reaches. */
const ANY_INDEX = 1 << 30;

/** A V2 compressed encoding of loadlab's shape carrying `payload` as its counts. */
function encodingOf(payload: number[]): string {
  const inner = new Uint8Array(40 + payload.length);
  const head = new DataView(inner.buffer);
  head.setInt32(0, 0x1c849313);
  head.setInt32(4, payload.length);
  head.setInt32(12, 3);
  head.setInt32(20, 1);
  inner.set(payload, 40);
  const packed = deflateSync(inner);
  const outer = new Uint8Array(8 + packed.length);
  new DataView(outer.buffer).setInt32(0, 0x1c849314);
  new DataView(outer.buffer).setInt32(4, packed.length);
  outer.set(packed, 8);
  return btoa(String.fromCharCode(...outer));
}

/** Deterministic values (us) spread over the whole range, with a few at its ends. */
function spread(count: number, seed: number): number[] {
  let state = seed;
  const out = [1, 2, 2047, 2048, MAX_LATENCY_US];
  for (let i = 0; i < count; i++) {
    state = (state * 1103515245 + 12345) % 2147483648;
    out.push(Math.max(1, Math.round(MAX_LATENCY_US * (state / 2147483648) ** 8)));
  }
  return out;
}

/** What the library's decode and add leave: every count (the encoding), the tracked max and min, the summary. */
function state(h: Histogram) {
  return {
    encoding: encodeHistogram(h),
    total: h.totalCount,
    max: h.maxValue,
    min: h.minNonZeroValue,
    summary: summarizeMs(h),
  };
}

Deno.test("adding an encoding leaves what the library's decode and add leave", () => {
  const cases: Histogram[] = [createHistogram()];
  for (const [count, seed] of [[1, 1], [50, 2], [5000, 3], [200_000, 4]]) {
    const h = createHistogram();
    for (const v of spread(count, seed)) h.recordValue(v);
    cases.push(h);
  }
  // A count past 2^31 (a varint of five bytes and more), and a lone value.
  const big = createHistogram();
  big.recordValueWithCount(300, 3_000_000_000);
  big.recordValueWithCount(123_456, 7);
  cases.push(big);
  const lone = createHistogram();
  lone.recordValue(777);
  cases.push(lone);
  for (const into of [() => createHistogram(), () => decodeHistogram(encodeHistogram(cases[3]))]) {
    for (const h of cases) {
      const encoded = encodeHistogram(h);
      assertEquals(readV2Counts(encoded, 3, ANY_INDEX) === null, false); // read here, not by the library
      const [fast, library] = [into(), into()];
      addEncoded(fast, encoded);
      library.add(decodeHistogram(encoded));
      assertEquals(state(fast), state(library));
    }
  }
});

Deno.test("an encoding of another shape is added by the library, as before", () => {
  const other = hdr.build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: MAX_LATENCY_US,
    numberOfSignificantValueDigits: 2,
  });
  for (const v of spread(500, 9)) other.recordValue(v);
  const encoded = hdr.encodeIntoCompressedBase64(other);
  assertEquals(readV2Counts(encoded, 3, ANY_INDEX), null);
  const [fast, library] = [createHistogram(), createHistogram()];
  addEncoded(fast, encoded);
  library.add(decodeHistogram(encoded));
  assertEquals(state(fast), state(library));
});

Deno.test("a broken encoding fails as the library's decode does, and counts cut short say so", () => {
  for (
    const bad of ["not base64 at all!", "", btoa("short"), encodeHistogram(createHistogram()).slice(0, 12)]
  ) {
    assertEquals(readV2Counts(bad, 3, ANY_INDEX), null);
    assertThrows(() => addEncoded(createHistogram(), bad));
    assertThrows(() => decodeHistogram(bad));
  }
  // A valid header whose last count has its continuation bit set and nothing after it.
  assertThrows(() => readV2Counts(encodingOf([0x04, 0x81]), 3, ANY_INDEX), /truncated/);
  // A count of 5 after a run of 2^40 empty indexes (ZigZag: 2^41 - 1 in 7-bit groups, then 10): the
  // library's decoder spins on it; here it is refused, and nothing is added.
  const run = [0xff, 0xff, 0xff, 0xff, 0xff, 0x3f];
  const into = createHistogram();
  assertThrows(() => addEncoded(into, encodingOf([0x06, ...run, 0x0a])), /past any value a histogram holds/);
  assertEquals(into.totalCount, 0);
});
