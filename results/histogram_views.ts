/**
 * @module
 * The views of a latency histogram a run stores beside its summary: equal-width bars, log-spaced bars,
 * the walk over HDR buckets, and the latency block that assembles them.
 */
import * as hdr from "hdr-histogram-js";
import type { HistogramBucket, LatencySummaryMs, PercentilePoint } from "./mod.ts";
import { encodeHistogram, type Histogram, maxUs, percentileCurve, summarizeMs, usToMs } from "./histogram.ts";

/** `h` as the library's JS histogram, whose counts array these walk; a WebAssembly one is refused. */
function jsHistogram(h: Histogram): hdr.JsHistogram {
  if (!(h instanceof hdr.JsHistogram)) {
    throw new TypeError("histogram buckets need a JS (non-wasm) histogram");
  }
  return h;
}

/**
 * oha-style equal-width buckets between the smallest and the largest latency, in ms. Each recorded HDR
 * bucket is attributed by its lowest equivalent value (clamped to [min, max]); the last bucket is closed
 * so the maximum lands in it. An empty histogram gives no buckets; values all in one HDR bucket give one.
 */
export function histogramBuckets(h: Histogram, n = 20): HistogramBucket[] {
  return bucketize(h, (minUs, topUs) => {
    const widthUs = (topUs - minUs) / n;
    return { n, index: (us) => Math.floor((us - minUs) / widthUs), edgeUs: (i) => minUs + i * widthUs };
  });
}

/**
 * Log-spaced buckets (`perDecade` per factor of ten) from the smallest to the largest latency, in ms.
 * Latency spans orders of magnitude, so equal widths put nearly everything into the first bar; these
 * show the body and the tail alike, as HDR plots do.
 */
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
  /** Lower edge of bucket i. */
  edgeUs(i: number): number;
}

/** Counts the recorded HDR buckets into the layout's buckets between min and max. */
function bucketize(
  h: Histogram,
  layoutOf: (minUs: number, topUs: number) => BucketLayout,
): HistogramBucket[] {
  if (h.totalCount === 0) return [];
  const js = jsHistogram(h);
  const minUs = js.minNonZeroValue;
  const topUs = maxUs(h);
  if (js.lowestEquivalentValue(topUs) <= minUs) {
    return [{ fromMs: usToMs(minUs), toMs: usToMs(topUs), count: h.totalCount }];
  }
  const layout = layoutOf(minUs, topUs);
  const n = layout.n;
  if (n < 1) return [];
  const counts = new Array<number>(n).fill(0);
  for (let i = 0; i < js.countsArrayLength; i++) {
    const lowestUs = js.valueFromIndex(i);
    if (lowestUs > topUs) break; // nothing is recorded above the max: skip the empty tail of the array
    const count = js.getCountAtIndex(i);
    if (count === 0) continue;
    counts[Math.max(0, Math.min(n - 1, layout.index(Math.max(minUs, lowestUs))))] += count;
  }
  return counts.map((count, i) => ({
    fromMs: usToMs(layout.edgeUs(i)),
    toMs: usToMs(i === n - 1 ? topUs : layout.edgeUs(i + 1)),
    count,
  }));
}

/**
 * Calls `each` for every HDR bucket that holds values, lowest first, with its slot in the counts array
 * (the same slots in every histogram of the shared shape) and its count: how other histogram formats are
 * built from this one exactly (results/export/native_histogram.ts). Empty slots cost one array read.
 */
export function forEachBucket(h: Histogram, each: (slot: number, count: number) => void): void {
  if (h.totalCount === 0) return;
  const js = jsHistogram(h);
  for (let i = 0; i < js.countsArrayLength; i++) {
    const count = js.getCountAtIndex(i);
    if (count !== 0) each(i, count);
  }
}

/** A slot's bucket: its top (the value percentiles report) and its middle (what the mean adds up), µs. */
export function bucketValuesUs(h: Histogram, slot: number): { highestUs: number; medianUs: number } {
  const js = jsHistogram(h);
  const lowestUs = js.valueFromIndex(slot);
  return { highestUs: js.highestEquivalentValue(lowestUs), medianUs: js.medianEquivalentValue(lowestUs) };
}

/** The latency fields a run stores, all from its one corrected histogram. */
interface LatencyBlock {
  latencyMs: LatencySummaryMs;
  percentiles: PercentilePoint[];
  histogram: HistogramBucket[];
  logHistogram: HistogramBucket[];
  histogramEncoded: string;
}

/**
 * A run's latency fields from its histogram: the one builder for a run as the aggregator finishes it,
 * after the warm-up cut, and for shards merged into one, so the three cannot store different shapes.
 */
export function latencyBlock(h: Histogram): LatencyBlock {
  return {
    latencyMs: summarizeMs(h),
    percentiles: percentileCurve(h),
    histogram: histogramBuckets(h),
    logHistogram: logHistogramBuckets(h),
    histogramEncoded: encodeHistogram(h),
  };
}
