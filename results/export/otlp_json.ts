/**
 * @module
 * Export points (results/export/run_series.ts) as an OpenTelemetry `ExportMetricsServiceRequest` in
 * OTLP/HTTP's JSON encoding (opentelemetry-proto metrics.proto, the protobuf JSON mapping: lowerCamelCase
 * names, enums as numbers, 64-bit integers as decimal strings): counters as monotonic cumulative sums,
 * the latency as a cumulative exponential histogram (scale 8, the Prometheus native histogram's buckets
 * with the index shifted by one), gauges as gauges. One resource (`service.name` loadlab), one scope.
 * Pure.
 */
import { COUNTERS, type ExportPoint, METRICS } from "./run_series.ts";
import { denseBuckets } from "./native_histogram.ts";

/** AggregationTemporality CUMULATIVE. */
const CUMULATIVE = 2;

type Attribute = { key: string; value: { stringValue: string } };

function attributes(labels: Record<string, string>): Attribute[] {
  return Object.entries(labels).map(([key, value]) => ({ key, value: { stringValue: value } }));
}

/** Milliseconds since the epoch as OTLP's fixed64 nanoseconds, a decimal string (beyond 2^53 as a number). */
export function unixNano(epochMs: number): string {
  return `${Math.round(epochMs)}000000`;
}

/** The request body of a batch of points (`JSON.stringify` it). */
export function otlpRequest(points: ExportPoint[], version: string): Record<string, unknown> {
  const base = (p: ExportPoint, extra: Record<string, string> = {}) => ({
    attributes: attributes({ ...p.labels, ...extra }),
    startTimeUnixNano: unixNano(p.startEpochMs),
    timeUnixNano: unixNano(p.timestampMs),
  });
  const sum = (name: string, description: string, unit: string, dataPoints: unknown[]) => ({
    name,
    description,
    unit,
    sum: { aggregationTemporality: CUMULATIVE, isMonotonic: true, dataPoints },
  });
  const gauge = (name: string, unit: string, dataPoints: unknown[]) => ({
    name,
    unit,
    gauge: { dataPoints },
  });
  const metrics = [
    ...COUNTERS.map((c) =>
      sum(
        c.otlp,
        c.help,
        c.unit,
        points.map((p) => ({
          ...base(p),
          asInt: String(p.counters[c.key]),
        })),
      )
    ),
    sum(
      METRICS.errors.otlp,
      "failed requests by kind",
      "{request}",
      points.flatMap((p) =>
        Object.entries(p.errors).map(([kind, n]) => ({ ...base(p, { kind }), asInt: String(n) }))
      ),
    ),
    {
      name: METRICS.latency.otlp,
      description: "request latency (from the intended send time)",
      unit: "s",
      exponentialHistogram: {
        aggregationTemporality: CUMULATIVE,
        dataPoints: points.map(histogramPoint(base)),
      },
    },
    gauge(METRICS.inFlight.otlp, "{request}", points.map((p) => ({ ...base(p), asInt: String(p.inFlight) }))),
    gauge(
      METRICS.connections.otlp,
      "{connection}",
      points.map((p) => ({ ...base(p), asInt: String(p.connections) })),
    ),
    gauge(METRICS.cpu.otlp, "%", telemetryPoints(points, "cpuPercent", base)),
    gauge(METRICS.rss.otlp, "By", telemetryPoints(points, "rssBytes", base)),
  ].filter((m) => !("gauge" in m) || (m.gauge as { dataPoints: unknown[] }).dataPoints.length > 0);
  return {
    resourceMetrics: [{
      resource: { attributes: attributes({ "service.name": "loadlab", "service.version": version }) },
      scopeMetrics: [{ scope: { name: "loadlab", version }, metrics }],
    }],
  };
}

function histogramPoint(base: (p: ExportPoint) => Record<string, unknown>) {
  return (p: ExportPoint) => {
    const h = p.latency;
    const { offset, bucketCounts } = denseBuckets(h);
    return {
      ...base(p),
      count: String(h.count),
      sum: h.sumSec,
      scale: h.schema,
      zeroCount: String(h.zeroCount),
      zeroThreshold: 0,
      positive: { offset, bucketCounts: bucketCounts.map(String) },
      ...(h.count > 0 ? { min: h.minSec, max: h.maxSec } : {}),
    };
  };
}

function telemetryPoints(
  points: ExportPoint[],
  field: "cpuPercent" | "rssBytes",
  base: (p: ExportPoint, extra: Record<string, string>) => Record<string, unknown>,
): unknown[] {
  return points.flatMap((p) =>
    p.telemetry.flatMap((t) => {
      const value = t[field];
      return value === undefined ? [] : [{ ...base(p, { process: t.process }), asDouble: value }];
    })
  );
}
