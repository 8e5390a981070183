/**
 * @module
 * A thin wrapper over `hdr-histogram-js` that fixes one histogram shape for the whole program (integer
 * microseconds, 1 us to 1 hour, 3 significant digits, plain JS counts) so that every encoding produced by
 * any worker can be added to any other without range mismatches. Histograms cross isolates as compressed
 * base64 strings and are merged by one function whether there is one worker or many. The summary helpers
 * turn a histogram into the millisecond figures of `results/schema/results.ts`; they return zeros (never NaN)
 * for an empty histogram because the printers format whatever they get.
 */

import * as hdr from "hdr-histogram-js";
import type { LatencySummaryMs, PercentilePoint } from "./mod.ts";
import { readV2Counts, type V2Counts } from "./histogram_v2.ts";

/** The histogram type used everywhere in loadlab (values are integer microseconds). */
export type Histogram = hdr.Histogram;

/** Largest recordable value: one hour in microseconds. Larger values are clamped to it. */
export const MAX_LATENCY_US = 3_600_000_000;

/** The significant digits of loadlab's shape (and its lowest value, 1: the unit is one microsecond). */
const SIGNIFICANT_DIGITS = 3;

/** The shape's fields the fast index reads (present on the library's JS histograms). */
interface IndexedShape {
  unitMagnitude: number;
  subBucketHalfCountMagnitude: number;
  countsArrayIndex(value: number): number;
  valueFromIndex(index: number): number;
  highestEquivalentValue(value: number): number;
}

/**
 * The counts index of `value`, as the library computes it, without its `log2` and two `pow` per value
 * (a measurable share of a message's cost in the hot path): for an integer below 2^32 (every latency
 * the recorders clamp to `MAX_LATENCY_US`), the bucket is the highest set bit above the sub-bucket
 * range and the sub-bucket a shift. Anything else goes to the library's own.
 */
function fastCountsIndex(this: IndexedShape, value: number): number {
  if ((value >>> 0) !== value) return Object.getPrototypeOf(this).countsArrayIndex.call(this, value);
  const half = this.subBucketHalfCountMagnitude;
  const bucket = Math.max(31 - Math.clz32(value) - half, 0);
  // A shift, not `2 ** half`: a power with a variable exponent is a libm call per value.
  return (bucket << half) + (value >>> bucket);
}

/** Creates an empty latency histogram with the shared shape. */
export function createHistogram(): Histogram {
  const h = hdr.build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: MAX_LATENCY_US,
    numberOfSignificantValueDigits: SIGNIFICANT_DIGITS,
    bitBucketSize: 32,
    useWebAssembly: false,
  });
  const shape = h as unknown as IndexedShape;
  if (shape.unitMagnitude === 0 && typeof shape.countsArrayIndex === "function") {
    shape.countsArrayIndex = fastCountsIndex;
  }
  return h;
}

/**
 * Clamps a latency to the recordable range and rounds it to an integer. Sub-microsecond latencies still
 * count as 1 us so that a response is never lost from the count.
 */
export function clampUs(valueUs: number): number {
  if (!(valueUs >= 1)) return 1; // also catches NaN
  if (valueUs > MAX_LATENCY_US) return MAX_LATENCY_US;
  return Math.round(valueUs);
}

/**
 * The whole microseconds from `fromMs` to `nowMs`, as the histograms keep a latency. Rounded by the caller,
 * a latency passes to the recorder (runner/stats/recorder.ts) as a small integer; a double handed to a
 * call V8 does not inline is a heap number each time, an allocation per response or message.
 */
export function elapsedUs(fromMs: number, nowMs: number): number {
  return Math.round((nowMs - fromMs) * 1000);
}

/** Compressed base64 HdrHistogram encoding, the form histograms take in messages and in results.json. */
export function encodeHistogram(h: Histogram): string {
  return hdr.encodeIntoCompressedBase64(h);
}

/**
 * Decodes an encoding made by `encodeHistogram` (or any HdrHistogram V2 compressed encoding). Loadlab's
 * shape is read by results/histogram_v2.ts; another shape by the library, once that reader has bounded
 * its counts (a corrupt run of them spins the library's decoder).
 */
export function decodeHistogram(encoded: string): Histogram {
  const read = readV2Counts(encoded);
  if (read === null || !isOwnShape(read)) return hdr.decodeFromCompressedBase64(encoded, 32, false);
  const h = createHistogram();
  addCounts(h, read.counts);
  return h;
}

/**
 * Adds an encoding into `into`, as `into.add(decodeHistogram(encoded))` would, without a decoded
 * histogram in between (results/histogram_v2.ts says why). An encoding of another shape goes through
 * the library.
 */
export function addEncoded(into: Histogram, encoded: string): void {
  const read = readV2Counts(encoded);
  const intoOwn = (into as unknown as IndexedShape).unitMagnitude === 0 &&
    into.numberOfSignificantValueDigits === SIGNIFICANT_DIGITS;
  if (read !== null && isOwnShape(read) && intoOwn) addCounts(into, read.counts);
  else into.add(decodeHistogram(encoded));
}

function isOwnShape(read: V2Counts): boolean {
  return read.significantDigits === SIGNIFICANT_DIGITS && read.lowestValue === 1;
}

/**
 * Records `counts` (`[index, count, ...]`, indexes rising) into `into` of loadlab's shape: each at its
 * index's lowest value, then the top index's highest value with no count, the max a decoded histogram
 * reports.
 */
function addCounts(into: Histogram, counts: number[]): void {
  const shape = into as unknown as IndexedShape;
  for (let k = 0; k < counts.length; k += 2) {
    into.recordValueWithCount(shape.valueFromIndex(counts[k]), counts[k + 1]);
  }
  if (counts.length === 0) return;
  into.recordValueWithCount(shape.highestEquivalentValue(shape.valueFromIndex(counts[counts.length - 2])), 0);
}

/** Adds all encodings into one new histogram; an empty list gives an empty histogram. */
export function mergeEncoded(encodings: string[]): Histogram {
  const total = createHistogram();
  for (const encoded of encodings) addEncoded(total, encoded);
  return total;
}

/** Microseconds (a histogram's unit) as the milliseconds results are written in. */
export function usToMs(us: number): number {
  return us / 1000;
}

/**
 * The largest value as a decoded histogram reports it: the top of its HDR bucket (within 0.1%). The exact
 * `maxValue` survives only in the recording isolate, so using it would make one worker's summary differ
 * from the merged one and put p99.99 above max.
 */
export function maxUs(h: Histogram): number {
  return h.getValueAtPercentile(100);
}

/** Every field of `LatencySummaryMs` from a microsecond histogram; all zeros when it is empty. */
export function summarizeMs(h: Histogram): LatencySummaryMs {
  if (h.totalCount === 0) {
    return {
      min: 0,
      mean: 0,
      stdev: 0,
      p2_5: 0,
      p10: 0,
      p25: 0,
      p50: 0,
      p75: 0,
      p90: 0,
      p95: 0,
      p97_5: 0,
      p99: 0,
      p999: 0,
      p9999: 0,
      max: 0,
    };
  }
  const p = (percentile: number) => usToMs(h.getValueAtPercentile(percentile));
  return {
    min: usToMs(h.minNonZeroValue),
    mean: usToMs(h.mean),
    stdev: usToMs(h.stdDeviation),
    p2_5: p(2.5),
    p10: p(10),
    p25: p(25),
    p50: p(50),
    p75: p(75),
    p90: p(90),
    p95: p(95),
    p97_5: p(97.5),
    p99: p(99),
    p999: p(99.9),
    p9999: p(99.99),
    max: usToMs(maxUs(h)),
  };
}

/** Percentiles people look for on the plot; added to the log-spaced ticks so they are exact points. */
const NAMED_PERCENTILES = [90, 95, 99, 99.9, 99.99, 99.999];

/**
 * The percentile ticks of an HDR percentile-distribution plot: two ticks per halving of the remaining
 * tail (0, 25, 50, 62.5, 75, 81.25, 87.5, ...) up to 99.999, plus the named percentiles and 100.
 * Computed once; the result is the same for every histogram.
 */
export const CURVE_PERCENTILES: readonly number[] = (() => {
  const ticks = new Set<number>(NAMED_PERCENTILES);
  for (let remaining = 1; 100 * (1 - remaining) < 99.999; remaining /= 2) {
    ticks.add(100 * (1 - remaining));
    const mid = 100 * (1 - 0.75 * remaining);
    if (mid < 99.999) ticks.add(mid);
  }
  ticks.add(100);
  return [...ticks].sort((a, b) => a - b);
})();

/** The HDR-style percentile curve (p0 .. p99.999, p100) in ms; empty for an empty histogram. */
export function percentileCurve(h: Histogram): PercentilePoint[] {
  if (h.totalCount === 0) return [];
  return CURVE_PERCENTILES.map((percentile) => ({
    percentile,
    latencyMs: usToMs(h.getValueAtPercentile(percentile)),
  }));
}
