/**
 * @module
 * A k6 script's end-of-run metrics (k6's summary metrics, results/export/k6/summary.ts, with the
 * script's own Counter, Trend, Rate and Gauge) as the series k6's own outputs name them, for the one
 * point the metrics exporter adds when the run is over. Prometheus remote write as k6's
 * `experimental-prometheus-rw` output writes them: `k6_<name>_total` for a counter, `k6_<name>` for a
 * gauge, `k6_<name>_rate` for a rate, and `k6_<name>_<stat>` for each statistic of a trend (`p(99)` as
 * `p99`; a time trend in seconds). OpenTelemetry as k6's `opentelemetry` output with its prefix set to
 * `k6_`: `k6_<name>` for a counter (a monotonic sum) and a gauge, a rate as one counter with the attribute
 * `condition` zero or nonzero; a trend, which k6 sends as a histogram of every value, goes as the gauges
 * of its statistics under the Prometheus names (the values themselves are not kept past the run; the
 * request latency's histogram is loadlab's own `loadlab.request.duration`). Pure.
 */
import type { K6Metric } from "./summary_text.ts";
import { labelName, type NamedSample } from "../export_point.ts";

/** Every metric of k6's summary as named samples; submetrics (`name{tag:value}`) are tags in k6, left out. */
export function k6NamedSamples(metrics: Record<string, K6Metric>): NamedSample[] {
  return Object.entries(metrics).flatMap(([name, metric]) =>
    name.includes("{") ? [] : samplesOf(`k6_${labelName(name)}`, metric)
  );
}

function samplesOf(base: string, m: K6Metric): NamedSample[] {
  const help = `k6 ${m.type} ${base.slice(3)}`;
  const sample = (fields: Omit<NamedSample, "help" | "labels" | "unit">, labels = {}): NamedSample => ({
    ...fields,
    unit: m.contains === "data" ? "By" : "",
    help,
    labels,
  });
  switch (m.type) {
    case "counter":
      return [sample({ prom: `${base}_total`, otlp: base, type: "counter", value: m.values.count ?? 0 })];
    case "gauge":
      return [sample({ prom: base, otlp: base, type: "gauge", value: m.values.value ?? 0 })];
    case "rate":
      return [
        sample({ prom: `${base}_rate`, type: "gauge", value: m.values.rate ?? 0 }),
        sample({ otlp: base, type: "counter", value: m.values.passes ?? 0 }, { condition: "nonzero" }),
        sample({ otlp: base, type: "counter", value: m.values.fails ?? 0 }, { condition: "zero" }),
      ];
    default: {
      const scale = m.contains === "time" ? 1 / 1000 : 1;
      return Object.entries(m.values).map(([stat, value]) => {
        const name = `${base}_${stat.replace(/[()]/g, "").replace(/\./g, "")}`;
        return sample({ prom: name, otlp: name, type: "gauge", value: value * scale });
      });
    }
  }
}
