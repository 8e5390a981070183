/**
 * @module
 * The main isolate's side of k6's custom metrics: `collectK6Metrics` listens on the channel the workers'
 * runtimes send their parts on (metrics.ts) from before the load, and `k6CustomMetrics` adds them up as
 * k6's summary shows them: a trend's avg, min, med, max and percentiles over every value, a counter's
 * count and rate, a rate's share of true values, a gauge's last value. The parts of every run of the
 * process add up (`loadlab run script.js` has one run).
 */
import type { K6Metric } from "../../../results/export/k6_summary_text.ts";
import { type MetricPart, METRICS_CHANNEL } from "./metrics.ts";

const totals = new Map<string, MetricPart>();
let listening: BroadcastChannel | null = null;

/** Starts listening (once per process). */
export function collectK6Metrics(): void {
  if (listening !== null) return;
  listening = new BroadcastChannel(METRICS_CHANNEL);
  listening.onmessage = (e: MessageEvent<MetricPart[]>) => {
    for (const part of e.data) add(part);
  };
}

function add(part: MetricPart): void {
  const total = totals.get(part.name);
  if (total === undefined) {
    totals.set(part.name, { ...part, values: [...part.values] });
    return;
  }
  total.count += part.count, total.sum += part.sum, total.trues += part.trues;
  if (part.kind === "trend") { for (const v of part.values) total.values.push(v); }
  else if (part.kind === "gauge") total.values = part.values;
}

/** Stops listening; the custom metrics as k6's summary metrics, rates over `durationSec`. */
export async function k6CustomMetrics(durationSec: number): Promise<Record<string, K6Metric>> {
  // The last parts a worker sent may still be on their way: one turn of the event loop for them.
  await new Promise((resolve) => setTimeout(resolve, 10));
  listening?.close();
  listening = null;
  const out: Record<string, K6Metric> = {};
  for (const t of totals.values()) out[t.name] = metricOf(t, durationSec > 0 ? durationSec : 1);
  return out;
}

function metricOf(t: MetricPart, sec: number): K6Metric {
  switch (t.kind) {
    case "trend": {
      const sorted = Float64Array.from(t.values).sort();
      const at = (q: number) =>
        sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
      return {
        type: "trend",
        contains: "default",
        values: {
          avg: t.count > 0 ? t.sum / t.count : 0,
          min: sorted[0] ?? 0,
          med: at(0.5),
          max: sorted[sorted.length - 1] ?? 0,
          "p(90)": at(0.9),
          "p(95)": at(0.95),
          "p(99)": at(0.99),
        },
      };
    }
    case "counter":
      return { type: "counter", contains: "default", values: { count: t.sum, rate: t.sum / sec } };
    case "rate":
      return {
        type: "rate",
        contains: "default",
        values: { rate: t.count > 0 ? t.trues / t.count : 0, passes: t.trues, fails: t.count - t.trues },
      };
    default: {
      const value = t.values[0] ?? 0;
      return { type: "gauge", contains: "default", values: { value, min: value, max: value } };
    }
  }
}
