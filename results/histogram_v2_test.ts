import { deepStrictEqual as assertEquals, throws as assertThrows } from "node:assert/strict";
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
import { encodingOf, zigzag } from "../tests/fixtures/hdr_encoding.ts";

/** The library's own decode, which `decodeHistogram` matches for loadlab's shape. */
function libraryDecode(encoded: string): Histogram {
  return hdr.decodeFromCompressedBase64(encoded, 32, false) as Histogram; // a JsHistogram: useWebAssembly off
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

/**
 * What the library's decode and add leave: every count (the encoding), the tracked max and min, the summary.
 */
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
      assertEquals(readV2Counts(encoded)?.significantDigits, 3); // read here, not by the library
      const [fast, library] = [into(), into()];
      addEncoded(fast, encoded);
      library.add(libraryDecode(encoded));
      assertEquals(state(fast), state(library));
    }
  }
  for (const h of cases) {
    const encoded = encodeHistogram(h);
    const expected = state(libraryDecode(encoded));
    // Empty, the min is a new histogram's (the library's decode leaves another sentinel); every reader
    // of the min checks the count first.
    if (h.totalCount === 0) expected.min = createHistogram().minNonZeroValue;
    assertEquals(state(decodeHistogram(encoded)), expected);
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
  assertEquals(readV2Counts(encoded)?.significantDigits, 2);
  const [fast, library] = [createHistogram(), createHistogram()];
  addEncoded(fast, encoded);
  library.add(libraryDecode(encoded));
  assertEquals(state(fast), state(library));
  assertEquals(state(decodeHistogram(encoded)), state(libraryDecode(encoded)));
});

Deno.test("a broken encoding fails as the library's decode does, and counts cut short say so", () => {
  for (
    const bad of ["not base64 at all!", "", btoa("short"), encodeHistogram(createHistogram()).slice(0, 12)]
  ) {
    assertEquals(readV2Counts(bad), null);
    assertThrows(() => addEncoded(createHistogram(), bad));
    assertThrows(() => decodeHistogram(bad));
  }
  // A valid header whose last count has its continuation bit set and nothing after it.
  assertThrows(() => readV2Counts(encodingOf([0x04, 0x81])), /truncated/);
  // A count of 5 after a run of 2^40 empty indexes (ZigZag: 2^41 - 1 in 7-bit groups, then 10): the
  // library's decoder spins on it; here it is refused, in loadlab's shape and in another, and nothing
  // is added.
  const run = [0xff, 0xff, 0xff, 0xff, 0xff, 0x3f];
  for (const digits of [3, 2, 5]) {
    const corrupt = encodingOf([0x06, ...run, 0x0a], digits);
    const into = createHistogram();
    assertThrows(() => addEncoded(into, corrupt), /past any value a histogram holds/);
    assertEquals(into.totalCount, 0);
    assertThrows(() => decodeHistogram(corrupt), /past any value a histogram holds/);
  }
});

Deno.test("the bound on indexes is the library's own size of the shape at its largest range", () => {
  // A count at the last index such a histogram has is read; one past it is refused.
  for (const digits of [0, 1, 2, 3, 4, 5]) {
    for (const lowest of [1, 1000]) {
      const { countsArrayLength } = hdr.build({
        lowestDiscernibleValue: lowest,
        highestTrackableValue: Number.MAX_SAFE_INTEGER,
        numberOfSignificantValueDigits: digits as 3,
        bitBucketSize: 8,
      }) as unknown as { countsArrayLength: number };
      const at = (index: number) => encodingOf([...zigzag(-index), 0x02], digits, lowest);
      assertEquals(readV2Counts(at(countsArrayLength - 1))?.counts, [countsArrayLength - 1, 1]);
      assertThrows(() => readV2Counts(at(countsArrayLength)), /past any value/);
    }
  }
});
