/**
 * @module
 * A k6 trend's values as the main isolate keeps them for k6's summary: all up to `MAX_TREND_VALUES`, then a
 * uniform sample (reservoir sampling) with exact count, sum, min and max, since no heap cap bounds the main
 * isolate. The summary says which trends were sampled.
 */

/** Most values a trend keeps (8 MiB of them): past it, a uniform sample of this many. */
export const MAX_TREND_VALUES = 1_048_576;

export class TrendSample {
  readonly values: number[] = [];
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
