/**
 * @module
 * k6's `k6/metrics` for converted scripts: `Trend`, `Counter`, `Rate` and `Gauge` take `add(value)` and
 * keep their aggregate per worker isolate (count, sum, min, max, last, passes). They do not yet reach
 * results.json or the summary, so a threshold on a custom metric is refused before the load.
 */

/** A custom metric's aggregate in this isolate. */
export interface MetricTotals {
  kind: "trend" | "counter" | "rate" | "gauge";
  count: number;
  sum: number;
  min: number;
  max: number;
  last: number;
  passes: number;
}

/** Every custom metric of this isolate by name. */
export const customMetrics = new Map<string, MetricTotals>();

class Metric {
  readonly #totals: MetricTotals;
  constructor(readonly name: string, kind: MetricTotals["kind"]) {
    let totals = customMetrics.get(name);
    if (totals === undefined) {
      totals = { kind, count: 0, sum: 0, min: Infinity, max: -Infinity, last: 0, passes: 0 };
      customMetrics.set(name, totals);
    }
    this.#totals = totals;
  }

  add(value: number | boolean, _tags?: Record<string, string>): void {
    const t = this.#totals, v = Number(value);
    t.count++, t.sum += v, t.last = v;
    if (v < t.min) t.min = v;
    if (v > t.max) t.max = v;
    if (value) t.passes++;
  }
}

export class Trend extends Metric {
  constructor(name: string, _isTime = false) {
    super(name, "trend");
  }
}
export class Counter extends Metric {
  constructor(name: string) {
    super(name, "counter");
  }
}
export class Rate extends Metric {
  constructor(name: string) {
    super(name, "rate");
  }
}
export class Gauge extends Metric {
  constructor(name: string) {
    super(name, "gauge");
  }
}

export default { Trend, Counter, Rate, Gauge };
