/**
 * @module
 * A k6 script's end-of-run metrics as k6's own outputs name them (Prometheus remote write's
 * `k6_<name>_total`/`_rate`/`_<stat>`, OpenTelemetry's `k6_<name>`), for the run's last export point. Pure.
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
