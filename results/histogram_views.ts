/**
 * @module
 * The views of a latency histogram a run stores beside its summary: equal-width bars, log-spaced bars,
 * and the latency block that assembles them.
 */
import type { HistogramBucket, LatencySummaryMs, PercentilePoint } from "./mod.ts";
import {
  bucketValuesUs,
  encodeHistogram,
  forEachBucket,
  type Histogram,
  percentileCurve,
  summarizeMs,
  usToMs,
} from "./histogram.ts";

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

interface LatencyBlock {
  latencyMs: LatencySummaryMs;
  percentiles: PercentilePoint[];
  histogram: HistogramBucket[];
  logHistogram: HistogramBucket[];
  histogramEncoded: string;
}

/** A run's latency fields from its histogram, the one builder for finished, cut and merged runs. */
export function latencyBlock(h: Histogram): LatencyBlock {
  return {
    latencyMs: summarizeMs(h),
    percentiles: percentileCurve(h),
    histogram: histogramBuckets(h),
    logHistogram: logHistogramBuckets(h),
    histogramEncoded: encodeHistogram(h),
  };
}
