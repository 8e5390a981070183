/**
 * @module
 * k6's `k6/metrics` for converted scripts: `Trend`, `Counter`, `Rate` and `Gauge` take `add(value)`.
 * Each isolate keeps what was added since its last send and the runtime sends it at the end of each
 * iteration (only when something was added) on a `BroadcastChannel`, which reaches loadlab's main isolate
 * from every worker of the process; metrics_channel.ts adds the workers' parts up there for k6's summary
 * and the thresholds on custom metrics. A trend sends its values (their percentiles are taken from all of
 * them), the others their sums.
 */

/** What one isolate added to a metric since its last send. */
export interface MetricPart {
  name: string;
  kind: "trend" | "counter" | "rate" | "gauge";
  /** Trend values, or the gauge's last value alone. */
  values: number[];
  sum: number;
  trues: number;
  count: number;
}

/** The channel the workers' parts travel on. */
export const METRICS_CHANNEL = "loadlab-k6-metrics";

const parts = new Map<string, MetricPart>();
let channel: BroadcastChannel | null = null;

/** Sends what was added since the last send (nothing when nothing was). */
export function flushMetrics(): void {
  if (parts.size === 0) return;
  channel ??= new BroadcastChannel(METRICS_CHANNEL);
  channel.postMessage([...parts.values()]);
  parts.clear();
}

class Metric {
  constructor(readonly name: string, readonly kind: MetricPart["kind"]) {}

  add(value: number | boolean, _tags?: Record<string, string>): void {
    let part = parts.get(this.name);
    if (part === undefined) {
      part = { name: this.name, kind: this.kind, values: [], sum: 0, trues: 0, count: 0 };
      parts.set(this.name, part);
    }
    const v = Number(value);
    part.count++, part.sum += v;
    if (value) part.trues++;
    if (this.kind === "trend") part.values.push(v);
    else if (this.kind === "gauge") part.values = [v];
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
