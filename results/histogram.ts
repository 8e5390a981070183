/**
 * @module
 * One HDR histogram shape (integer µs, 1 µs to 1 h, 3 digits), so any encoding adds to any other; its views.
 */
// The library's parts, not its index, which builds a WebAssembly histogram and an ICU format (tens of ms).
import type { JsHistogram } from "hdr-histogram-js/dist/JsHistogram.js";
import { constructorFromBucketSize } from "hdr-histogram-js/dist/JsHistogramFactory.js";
import { decompress, doDecode } from "hdr-histogram-js/dist/JsHistogram.encoding.js";
import type { HistogramBucket, LatencySummaryMs, PercentilePoint, RunResult } from "./mod.ts";
import { readV2Counts, type V2Counts } from "./histogram_v2.ts";
import { PERCENTILE_FIELDS } from "./schema/keys.ts";

/** The histogram type used everywhere in loadlab (values are integer microseconds). */
export type Histogram = JsHistogram;

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
  getCountAtIndex(index: number): number;
  countsArrayLength: number;
}

/** The counts index of `value` as the library computes it, without `log2` and `pow` (hot path). */
function fastCountsIndex(this: IndexedShape, value: number): number {
  if ((value >>> 0) !== value) return Object.getPrototypeOf(this).countsArrayIndex.call(this, value);
  const half = this.subBucketHalfCountMagnitude;
  const bucket = Math.max(31 - Math.clz32(value) - half, 0);
  // A shift, not `2 ** half`: a power with a variable exponent is a libm call per value.
  return (bucket << half) + (value >>> bucket);
}

export function createHistogram(): Histogram {
  const h = new (constructorFromBucketSize(32))(1, MAX_LATENCY_US, SIGNIFICANT_DIGITS);
  h.autoResize = true;
  const shape = h as unknown as IndexedShape;
  if (shape.unitMagnitude === 0 && typeof shape.countsArrayIndex === "function") {
    shape.countsArrayIndex = fastCountsIndex;
  }
  return h;
}

/** Clamps a latency to the recordable range as an integer; under 1 µs counts as 1, never lost. */
export function clampUs(valueUs: number): number {
  if (!(valueUs >= 1)) return 1; // also catches NaN
  if (valueUs > MAX_LATENCY_US) return MAX_LATENCY_US;
  return Math.round(valueUs);
}

/** Whole µs from `fromMs` to `nowMs`: a small integer, not a heap number per response. */
export function elapsedUs(fromMs: number, nowMs: number): number {
  return Math.round((nowMs - fromMs) * 1000);
}

/** Compressed base64 HdrHistogram encoding, the form histograms take in messages and in results.json. */
export function encodeHistogram(h: Histogram): string {
  return h.encodeIntoCompressedBase64();
}

/** Decodes an HdrHistogram V2 encoding (loadlab's shape by histogram_v2.ts, another by the library). */
export function decodeHistogram(encoded: string): Histogram {
  const read = readV2Counts(encoded);
  if (read === null || !isOwnShape(read)) return doDecode(decompress(Uint8Array.fromBase64(encoded.trim())));
  const h = createHistogram();
  addCounts(h, read.counts);
  return h;
}

/** Adds an encoding into `into` without a decoded histogram in between. */
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

/** Records `[index, count, ...]` into `into`, then the top index's highest value (a decoded max). */
function addCounts(into: Histogram, counts: number[]): void {
  const shape = into as unknown as IndexedShape;
  for (let k = 0; k < counts.length; k += 2) {
    into.recordValueWithCount(shape.valueFromIndex(counts[k]), counts[k + 1]);
  }
  if (counts.length === 0) return;
  into.recordValueWithCount(bucketValuesUs(into, counts[counts.length - 2]).highestUs, 0);
}

let scratch: Histogram | null = null;

/** Adds all encodings into one new histogram (`reuse`: one emptied and reused, valid until the next). */
export function mergeEncoded(encodings: string[], reuse = false): Histogram {
  const total = reuse ? (scratch ??= createHistogram()) : createHistogram();
  if (reuse) total.reset();
  for (const encoded of encodings) addEncoded(total, encoded);
  return total;
}

/** Microseconds (a histogram's unit) as the milliseconds results are written in. */
export function usToMs(us: number): number {
  return us / 1000;
}

/** Every field of `LatencySummaryMs` as the library's getters give it (all zeros when empty), in one walk. */
export function summarizeMs(h: Histogram): LatencySummaryMs {
  const total = h.totalCount,
    { atUs, maxUs, medians, counts } = walkUs(h, PERCENTILE_FIELDS.map(([, p]) => p));
  const mean = total === 0 ? 0 : medians.reduce((sum, us, i) => sum + us * counts[i], 0) / total;
  const squares = medians.reduce((sum, us, i) => sum + (us - mean) * (us - mean) * counts[i], 0);
  const min = total === 0 ? 0 : h.minNonZeroValue, stdev = total === 0 ? 0 : Math.sqrt(squares / total);
  const summary = { min: usToMs(min), mean: usToMs(mean), stdev: usToMs(stdev) } as LatencySummaryMs;
  PERCENTILE_FIELDS.forEach(([key], i) => summary[key] = usToMs(atUs[i]));
  summary.max = usToMs(maxUs);
  return summary;
}

/** `getValueAtPercentile` at ascending `percentiles`, the top, each recorded bucket's median and count. */
function walkUs(h: Histogram, percentiles: readonly number[]) {
  // The library's rank: rounded up, less one ulp of the float product, at least the first value.
  const ranks = percentiles.map((p) => {
    const fp = (Math.min(p, 100) / 100) * h.totalCount;
    return Math.max(Math.ceil(fp - 2 ** (Math.floor(Math.log2(fp)) - 52)), 1);
  });
  const atUs = percentiles.map(() => 0), medians: number[] = [], counts: number[] = [];
  let seen = 0, next = 0, maxUs = 0;
  forEachBucket(h, (slot, count) => {
    const { lowestUs, highestUs, medianUs } = bucketValuesUs(h, slot);
    seen += count;
    maxUs = highestUs;
    for (; next < ranks.length && seen >= ranks[next]; next++) {
      atUs[next] = percentiles[next] ? highestUs : lowestUs;
    }
    medians.push(medianUs);
    counts.push(count);
  });
  return { atUs, maxUs, medians, counts };
}

/**
 * k6's trend percentile (`q` of 1): between the sorted values around rank q(n - 1), linearly, after `zeros`
 * values of 0 (k6's requests failed unsent). A value is its bucket's top; the lowest is the minimum recorded.
 */
export function k6QuantileUs(h: Histogram, q: number, zeros = 0): number {
  const n = h.totalCount + zeros, rank = Math.min(Math.max(q, 0), 1) * (n - 1), low = Math.floor(rank);
  const indexes = [low - zeros, Math.ceil(rank) - zeros], at = [0, 0];
  let seen = 0;
  forEachBucket(h, (slot, count) => {
    const topUs = bucketValuesUs(h, slot).highestUs;
    indexes.forEach((i, k) => {
      if (i >= seen && i < seen + count) at[k] = i === 0 ? Math.min(h.minNonZeroValue, topUs) : topUs;
    });
    seen += count;
  });
  return n === 0 ? 0 : at[0] + (at[1] - at[0]) * (rank - low);
}

/** Calls `each` for every recorded HDR bucket, lowest first, with its slot and count. */
export function forEachBucket(h: Histogram, each: (slot: number, count: number) => void): void {
  const js = h as unknown as IndexedShape;
  for (let i = 0, seen = 0; seen < h.totalCount && i < js.countsArrayLength; i++) {
    const count = js.getCountAtIndex(i);
    if (count === 0) continue;
    seen += count;
    each(i, count);
  }
}

/** A slot's values, µs: its top (what percentiles report) and middle (what the mean adds up). */
export function bucketValuesUs(h: Histogram, slot: number) {
  // Its values run up to the next slot's lowest: the library's equivalent range, without its log2 per value.
  const js = h as unknown as IndexedShape, lowestUs = js.valueFromIndex(slot);
  const sizeUs = js.valueFromIndex(slot + 1) - lowestUs;
  return { lowestUs, highestUs: lowestUs + sizeUs - 1, medianUs: lowestUs + Math.floor(sizeUs / 2) };
}

/** Percentiles people look for on the plot; added to the log-spaced ticks so they are exact points. */
const NAMED_PERCENTILES = [90, 95, 99, 99.9, 99.99, 99.999];

/** The ticks of an HDR percentile plot: two per halving of the tail up to 99.999, named ones, 100. */
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
  const { atUs } = walkUs(h, CURVE_PERCENTILES);
  return CURVE_PERCENTILES.map((percentile, i) => ({ percentile, latencyMs: usToMs(atUs[i]) }));
}

/** oha-style equal-width buckets from the smallest to the largest latency, in ms; the last one closed. */
export function histogramBuckets(h: Histogram, n = 20): HistogramBucket[] {
  return bucketize(h, (minUs, topUs) => {
    const widthUs = (topUs - minUs) / n;
    return { n, index: (us) => Math.floor((us - minUs) / widthUs), edgeUs: (i) => minUs + i * widthUs };
  });
}

/** Log-spaced buckets (`perDecade` per decade), in ms: the body and the tail alike, as HDR plots. */
export function logHistogramBuckets(h: Histogram, perDecade = 8): HistogramBucket[] {
  return bucketize(h, (minUs, topUs) => {
    const n = Math.min(80, Math.max(1, Math.ceil(Math.log10(topUs / minUs) * perDecade)));
    return {
      n,
      index: (us) => Math.floor(Math.log10(us / minUs) * perDecade),
      edgeUs: (i) => minUs * 10 ** (i / perDecade),
    };
  });
}

interface BucketLayout {
  n: number;
  /** Bucket of a value in [min, max] (clamped by the caller to 0..n-1). */
  index(valueUs: number): number;
  edgeUs(i: number): number;
}

function bucketize(
  h: Histogram,
  layoutOf: (minUs: number, topUs: number) => BucketLayout,
): HistogramBucket[] {
  if (h.totalCount === 0) return [];
  const slots: number[] = [], slotCounts: number[] = [];
  forEachBucket(h, (slot, count) => (slots.push(slot), slotCounts.push(count)));
  const minUs = h.minNonZeroValue, top = bucketValuesUs(h, slots[slots.length - 1]), topUs = top.highestUs;
  if (top.lowestUs <= minUs) return [{ fromMs: usToMs(minUs), toMs: usToMs(topUs), count: h.totalCount }];
  const layout = layoutOf(minUs, topUs);
  const n = layout.n;
  if (n < 1) return [];
  const counts = new Array<number>(n).fill(0);
  slots.forEach((slot, k) => {
    const lowestUs = bucketValuesUs(h, slot).lowestUs;
    counts[Math.max(0, Math.min(n - 1, layout.index(Math.max(minUs, lowestUs))))] += slotCounts[k];
  });
  return counts.map((count, i) => ({
    fromMs: usToMs(layout.edgeUs(i)),
    toMs: usToMs(i === n - 1 ? topUs : layout.edgeUs(i + 1)),
    count,
  }));
}

/** A run's streamed answers' first messages (schema/run.ts `firstMessage`); none when `h` holds none. */
export function firstMessageBlock(h: Histogram | null): Pick<RunResult, "firstMessage"> {
  if (h === null || h.totalCount === 0) return {};
  return {
    firstMessage: { streams: h.totalCount, latencyMs: summarizeMs(h), histogramEncoded: encodeHistogram(h) },
  };
}

/** A run's latency fields from its histogram, the one builder for finished, cut and merged runs. */
export function latencyBlock(h: Histogram) {
  return {
    latencyMs: summarizeMs(h),
    percentiles: percentileCurve(h),
    histogram: histogramBuckets(h),
    logHistogram: logHistogramBuckets(h),
    histogramEncoded: encodeHistogram(h),
  };
}
