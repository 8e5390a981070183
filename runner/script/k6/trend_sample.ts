/**
 * @module
 * A k6 trend's values as loadlab's main isolate keeps them for k6's summary: every value up to
 * `MAX_TREND_VALUES`, then a uniform sample of that many (reservoir sampling, algorithm R), with its
 * count, sum, min and max still exact. k6 keeps every value, but here they pile up in the main isolate,
 * which no worker's heap cap bounds and which a memory cut does not give back: a script adding 200,000
 * values an iteration grew loadlab to 2.2 GB under a 300 MB limit, and the summary after the run was lost
 * to the memory the run's totals still held. A percentile read from a sample of a million values is
 * within a few hundredths of a percent of the rank it names; the summary says which trends were sampled.
 */

/** Most values a trend keeps (8 MiB of them): past it, a uniform sample of this many. */
export const MAX_TREND_VALUES = 1_048_576;

/** A trend's values: all of them, or a uniform sample once past `cap`; `min`/`max` over all. */
export class TrendSample {
  readonly values: number[] = [];
  /** Values offered, kept or not. */
  seen = 0;
  min = Infinity;
  max = -Infinity;

  constructor(readonly cap = MAX_TREND_VALUES) {}

  add(values: readonly number[]): void {
    for (const v of values) {
      this.seen++;
      if (v < this.min) this.min = v;
      if (v > this.max) this.max = v;
      if (this.values.length < this.cap) this.values.push(v);
      else {
        const k = Math.floor(Math.random() * this.seen);
        if (k < this.cap) this.values[k] = v;
      }
    }
  }

  /** Whether values were left out (the percentiles are then the sample's). */
  get sampled(): boolean {
    return this.seen > this.values.length;
  }
}
