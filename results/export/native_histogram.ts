/**
 * @module
 * An HDR latency histogram (µs) as an exponential histogram in seconds (Prometheus native, OTel
 * exponential): each HDR bucket goes whole into the bucket holding its top value, so counts are exact. Pure.
 */
import { bucketValuesUs, forEachBucket, type Histogram } from "../histogram.ts";

/** Prometheus' finest schema: 256 buckets per doubling. */
export const NATIVE_SCHEMA = 8;

/** The relative width of one bucket at `NATIVE_SCHEMA`: how far a quantile can move. */
export const NATIVE_BUCKET_WIDTH = 2 ** (1 / 2 ** NATIVE_SCHEMA) - 1;

/** A cumulative exponential histogram: non-empty buckets by Prometheus index, ascending. */
export type NativeHistogram = ReturnType<typeof nativeHistogram>;

/** The Prometheus bucket index of a value (seconds) at a schema: the bucket whose upper bound holds it. */
export function bucketIndex(valueSec: number, schema = NATIVE_SCHEMA): number {
  const perDoubling = 2 ** schema;
  let index = Math.ceil(Math.log2(valueSec) * perDoubling);
  // log2 is not exact near a bound: settle on the bucket whose (lower, upper] holds the value.
  if (valueSec > 2 ** (index / perDoubling)) index++;
  else if (valueSec <= 2 ** ((index - 1) / perDoubling)) index--;
  return index;
}

/** What a slot of the shared HDR shape maps to: its top in seconds, middle in seconds, bucket index. */
interface SlotFacts {
  topSec: number;
  middleSec: number;
  index: number;
}

/** Slot facts at `NATIVE_SCHEMA`, filled as slots are met: every histogram has the same slots. */
const slotFacts = new Map<number, SlotFacts>();

function factsOf(h: Histogram, slot: number): SlotFacts {
  const cached = slotFacts.get(slot);
  if (cached !== undefined) return cached;
  const { highestUs, medianUs } = bucketValuesUs(h, slot);
  const facts = { topSec: highestUs / 1e6, middleSec: medianUs / 1e6, index: bucketIndex(highestUs / 1e6) };
  slotFacts.set(slot, facts);
  return facts;
}

/**
 * The exponential form of an HDR histogram of microseconds: index i holds (2^((i-1)/2^schema),
 * 2^(i/2^schema)] seconds; `sumSec` counts each bucket at its middle, as HDR's mean does.
 */
export function nativeHistogram(h: Histogram) {
  const schema: number = NATIVE_SCHEMA;
  const indexes: number[] = [];
  const counts: number[] = [];
  let sumSec = 0, minSec = 0, maxSec = 0;
  forEachBucket(h, (slot, count) => {
    const { topSec, middleSec, index } = factsOf(h, slot);
    if (indexes.at(-1) === index) counts[counts.length - 1] += count;
    else {
      indexes.push(index);
      counts.push(count);
    }
    sumSec += middleSec * count;
    if (minSec === 0) minSec = topSec;
    maxSec = topSec;
  });
  return { schema, count: h.totalCount, sumSec, zeroCount: 0, indexes, counts, minSec, maxSec };
}

/** Prometheus' sparse form: spans of consecutive buckets (offsets from the one before) and deltas. */
export function spansAndDeltas(native: Pick<NativeHistogram, "indexes" | "counts">) {
  const spans: { offset: number; length: number }[] = [];
  const deltas: number[] = [];
  let next = 0, previousCount = 0;
  native.indexes.forEach((index, i) => {
    const count = native.counts[i];
    if (spans.length > 0 && index === next) spans[spans.length - 1].length++;
    else spans.push({ offset: spans.length === 0 ? index : index - next, length: 1 });
    deltas.push(count - previousCount);
    previousCount = count;
    next = index + 1;
  });
  return { spans, deltas };
}

/** OpenTelemetry's dense form: bucket `offset + k` holds (base^(offset+k), base^(offset+k+1)]. */
export function denseBuckets(native: Pick<NativeHistogram, "indexes" | "counts">): {
  offset: number;
  bucketCounts: number[];
} {
  if (native.indexes.length === 0) return { offset: 0, bucketCounts: [] };
  // OpenTelemetry's index is Prometheus' minus one (its buckets are named by their lower bound).
  const first = native.indexes[0];
  const bucketCounts = new Array<number>(native.indexes.at(-1)! - first + 1).fill(0);
  native.indexes.forEach((index, i) => bucketCounts[index - first] = native.counts[i]);
  return { offset: first - 1, bucketCounts };
}
