/**
 * @module
 * Export points as an OTLP `ExportMetricsServiceRequest` in OTLP/HTTP's JSON mapping: counters as
 * cumulative sums, latency as an exponential histogram (scale 8), gauges; otlp_protobuf.ts encodes it. Pure.
 */
import { exportFamilies, type ExportFamily, type ExportPoint } from "./export_point.ts";
import { denseBuckets, type NativeHistogram } from "./native_histogram.ts";

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
  const metrics = exportFamilies(points).filter((f) =>
    f.otlp !== undefined && !(f.optional && !f.samples.length)
  )
    .map(otlpMetric);
  return {
    resourceMetrics: [{
      resource: { attributes: attributes({ "service.name": "loadlab", "service.version": version }) },
      scopeMetrics: [{ scope: { name: "loadlab", version }, metrics }],
    }],
  };
}

/** A family as an OTLP metric: a cumulative sum, a gauge or a cumulative exponential histogram. */
function otlpMetric(f: ExportFamily): OtlpMetric {
  const head = { name: f.otlp!, description: f.help, unit: f.unit };
  const base = (s: ExportFamily["samples"][number]): OtlpPointBase => ({
    attributes: attributes({ ...s.point.labels, ...s.labels }),
    startTimeUnixNano: unixNano(s.point.startEpochMs),
    timeUnixNano: unixNano(s.point.timestampMs),
  });
  if (f.type === "histogram") {
    const dataPoints = f.samples.map((s) => histogramPoint(base(s), s.value as NativeHistogram));
    return { ...head, exponentialHistogram: { aggregationTemporality: CUMULATIVE, dataPoints } };
  }
  const dataPoints = f.samples.map((s): OtlpNumberPoint =>
    f.integer ? { ...base(s), asInt: String(s.value) } : { ...base(s), asDouble: s.value as number }
  );
  return f.type === "gauge"
    ? { ...head, gauge: { dataPoints } }
    : { ...head, sum: { aggregationTemporality: CUMULATIVE, isMonotonic: true, dataPoints } };
}

function histogramPoint(base: OtlpPointBase, h: NativeHistogram): OtlpExponentialPoint {
  const { offset, bucketCounts } = denseBuckets(h);
  return {
    ...base,
    count: String(h.count),
    sum: h.sumSec,
    scale: h.schema,
    zeroCount: String(h.zeroCount),
    zeroThreshold: 0,
    positive: { offset, bucketCounts: bucketCounts.map(String) },
    ...(h.count > 0 ? { min: h.minSec, max: h.maxSec } : {}),
  };
}
