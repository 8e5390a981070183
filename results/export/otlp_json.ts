/**
 * @module
 * Export points as an OTLP `ExportMetricsServiceRequest` in OTLP/HTTP's JSON mapping: counters as
 * cumulative sums, latency as an exponential histogram (scale 8), gauges; otlp_protobuf.ts encodes it. Pure.
 */
import { COUNTERS, type ExportPoint, METRICS, WS_COUNTERS } from "./export_point.ts";
import { denseBuckets } from "./native_histogram.ts";

/** AggregationTemporality CUMULATIVE. */
const CUMULATIVE = 2;

/** A KeyValue with a string AnyValue. */
export type OtlpAttribute = { key: string; value: { stringValue: string } };

/** What every data point has; 64-bit integers as decimal strings, as the JSON mapping writes them. */
interface OtlpPointBase {
  attributes: OtlpAttribute[];
  startTimeUnixNano: string;
  timeUnixNano: string;
}

/** NumberDataPoint: a counter's or a gauge's value. */
export type OtlpNumberPoint = OtlpPointBase & ({ asInt: string } | { asDouble: number });

/** ExponentialHistogramDataPoint (positive buckets only: latencies are never negative). */
export interface OtlpExponentialPoint extends OtlpPointBase {
  count: string;
  sum: number;
  scale: number;
  zeroCount: string;
  zeroThreshold: number;
  positive: { offset: number; bucketCounts: string[] };
  min?: number;
  max?: number;
}

/** Metric, with the one kind of data loadlab sends for it. */
export type OtlpMetric =
  & { name: string; description?: string; unit: string }
  & (
    | { sum: { aggregationTemporality: number; isMonotonic: boolean; dataPoints: OtlpNumberPoint[] } }
    | { gauge: { dataPoints: OtlpNumberPoint[] } }
    | { exponentialHistogram: { aggregationTemporality: number; dataPoints: OtlpExponentialPoint[] } }
  );

/** ExportMetricsServiceRequest as loadlab fills it: one resource, one scope. */
export interface OtlpRequest {
  resourceMetrics: {
    resource: { attributes: OtlpAttribute[] };
    scopeMetrics: { scope: { name: string; version: string }; metrics: OtlpMetric[] }[];
  }[];
}

function attributes(labels: Record<string, string>): OtlpAttribute[] {
  return Object.entries(labels).map(([key, value]) => ({ key, value: { stringValue: value } }));
}

/** Milliseconds since the epoch as OTLP's fixed64 nanoseconds, a decimal string (beyond 2^53 as a number). */
export function unixNano(epochMs: number): string {
  return `${Math.round(epochMs)}000000`;
}

/** The request body of a batch of points (`JSON.stringify` it). */
export function otlpRequest(points: ExportPoint[], version: string): OtlpRequest {
  const metrics: OtlpMetric[] = [
    ...counterMetrics(points),
    histogramMetric(
      METRICS.latency.otlp,
      "request latency (from the intended send time)",
      points.map(histogramPoint(pointBase)),
    ),
    gaugeMetric(
      METRICS.inFlight.otlp,
      "{request}",
      points.map((p) => ({ ...pointBase(p), asInt: String(p.inFlight) })),
    ),
    gaugeMetric(
      METRICS.connections.otlp,
      "{connection}",
      points.map((p) => ({ ...pointBase(p), asInt: String(p.connections) })),
    ),
    ...endpointMetrics(points),
    gaugeMetric(METRICS.cpu.otlp, "%", telemetryPoints(points, "cpuPercent")),
    gaugeMetric(METRICS.rss.otlp, "By", telemetryPoints(points, "rssBytes")),
    ...namedMetrics(points),
  ].filter((m) => !optionalMetric(m) || dataPointsOf(m).length > 0);
  return {
    resourceMetrics: [{
      resource: { attributes: attributes({ "service.name": "loadlab", "service.version": version }) },
      scopeMetrics: [{ scope: { name: "loadlab", version }, metrics }],
    }],
  };
}

function pointBase(p: ExportPoint, extra: Record<string, string> = {}): OtlpPointBase {
  return {
    attributes: attributes({ ...p.labels, ...extra }),
    startTimeUnixNano: unixNano(p.startEpochMs),
    timeUnixNano: unixNano(p.timestampMs),
  };
}

function sumMetric(
  name: string,
  description: string,
  unit: string,
  dataPoints: OtlpNumberPoint[],
): OtlpMetric {
  return {
    name,
    description,
    unit,
    sum: { aggregationTemporality: CUMULATIVE, isMonotonic: true, dataPoints },
  };
}

function gaugeMetric(name: string, unit: string, dataPoints: OtlpNumberPoint[]): OtlpMetric {
  return { name, unit, gauge: { dataPoints } };
}

function histogramMetric(name: string, description: string, dataPoints: OtlpExponentialPoint[]): OtlpMetric {
  return {
    name,
    description,
    unit: "s",
    exponentialHistogram: { aggregationTemporality: CUMULATIVE, dataPoints },
  };
}

function counterMetrics(points: ExportPoint[]): OtlpMetric[] {
  return [
    ...COUNTERS.map((c) =>
      sumMetric(
        c.otlp,
        c.help,
        c.unit,
        points.map((p) => ({ ...pointBase(p), asInt: String(p.counters[c.key]) })),
      )
    ),
    ...WS_COUNTERS.map((c) =>
      sumMetric(
        c.otlp,
        c.help,
        c.unit,
        points.flatMap((p) => p.ws === null ? [] : [{ ...pointBase(p), asInt: String(p.ws[c.key]) }]),
      )
    ),
    sumMetric(
      METRICS.errors.otlp,
      "failed requests by kind",
      "{request}",
      points.flatMap((p) =>
        Object.entries(p.errors).map(([kind, n]) => ({ ...pointBase(p, { kind }), asInt: String(n) }))
      ),
    ),
  ];
}

function endpointMetrics(points: ExportPoint[]): OtlpMetric[] {
  return [
    sumMetric(
      METRICS.endpointRequests.otlp,
      "responses of one endpoint, any status",
      "{response}",
      points.flatMap((p) =>
        p.endpoints.map((e) => ({ ...pointBase(p, { endpoint: e.name }), asInt: String(e.requests) }))
      ),
    ),
    sumMetric(
      METRICS.endpointErrors.otlp,
      "failed requests of one endpoint",
      "{request}",
      points.flatMap((p) =>
        p.endpoints.map((e) => ({ ...pointBase(p, { endpoint: e.name }), asInt: String(e.errors) }))
      ),
    ),
    histogramMetric(
      METRICS.endpointLatency.otlp,
      "one endpoint's request latency (from the intended send time)",
      points.flatMap((p) =>
        p.endpoints.map((e) =>
          histogramPoint((q) => pointBase(q, { endpoint: e.name }))({ ...p, latency: e.latency })
        )
      ),
    ),
  ];
}

/** Gauges, the per-endpoint and the ws metrics are sent only with data; the run's counters always. */
function optionalMetric(m: OtlpMetric): boolean {
  return "gauge" in m || m.name.startsWith("loadlab.endpoint.") || m.name.startsWith("loadlab.ws.");
}

function dataPointsOf(m: OtlpMetric): unknown[] {
  return "gauge" in m
    ? m.gauge.dataPoints
    : "sum" in m
    ? m.sum.dataPoints
    : m.exponentialHistogram.dataPoints;
}

function histogramPoint(base: (p: ExportPoint) => OtlpPointBase) {
  return (p: ExportPoint): OtlpExponentialPoint => {
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

function namedMetrics(points: ExportPoint[]): OtlpMetric[] {
  const byName = new Map<string, OtlpMetric>();
  for (const p of points) {
    for (const n of p.named ?? []) {
      if (n.otlp === undefined) continue;
      let metric = byName.get(n.otlp);
      if (metric === undefined) {
        metric = n.type === "counter"
          ? sumMetric(n.otlp, n.help, n.unit, [])
          : { ...gaugeMetric(n.otlp, n.unit, []), description: n.help };
        byName.set(n.otlp, metric);
      }
      (dataPointsOf(metric) as OtlpNumberPoint[]).push({ ...pointBase(p, n.labels), asDouble: n.value });
    }
  }
  return [...byName.values()];
}

function telemetryPoints(points: ExportPoint[], field: "cpuPercent" | "rssBytes"): OtlpNumberPoint[] {
  return points.flatMap((p) =>
    p.telemetry.flatMap((t) => {
      const value = t[field];
      return value === undefined ? [] : [{ ...pointBase(p, { process: t.process }), asDouble: value }];
    })
  );
}
