/**
 * @module
 * The bodies metrics outputs push: OTLP/HTTP JSON and protobuf, Prometheus remote-write 1.0. Pure.
 */
import { ProtoWriter } from "./protobuf_writer.ts";
import { exportFamilies, type ExportFamily, type ExportPoint } from "./export_point.ts";
import { denseBuckets, type NativeHistogram, spansAndDeltas } from "./native_histogram.ts";

/** AggregationTemporality CUMULATIVE. */
const CUMULATIVE = 2;

/** A KeyValue with a string AnyValue. */
type OtlpAttribute = { key: string; value: { stringValue: string } };

/** What every data point has; 64-bit integers as decimal strings, as the JSON mapping writes them. */
interface OtlpPointBase {
  attributes: OtlpAttribute[];
  startTimeUnixNano: string;
  timeUnixNano: string;
}

/** NumberDataPoint: a counter's or a gauge's value. */
type OtlpNumberPoint = OtlpPointBase & ({ asInt: string } | { asDouble: number });

/** ExponentialHistogramDataPoint (positive buckets only: latencies are never negative). */
interface OtlpExponentialPoint extends OtlpPointBase {
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
type OtlpMetric =
  & { name: string; description?: string; unit: string }
  & (
    | { sum: { aggregationTemporality: number; isMonotonic: boolean; dataPoints: OtlpNumberPoint[] } }
    | { gauge: { dataPoints: OtlpNumberPoint[] } }
    | { exponentialHistogram: { aggregationTemporality: number; dataPoints: OtlpExponentialPoint[] } }
  );

/** ExportMetricsServiceRequest as loadlab fills it: one resource, one scope. */
interface OtlpRequest {
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
  const sent = (f: ExportFamily) => f.otlp !== undefined && !(f.optional && !f.samples.length);
  const metrics = exportFamilies(points).filter(sent).map(otlpMetric);
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

export function encodeOtlpRequest(request: OtlpRequest): Uint8Array {
  const w = new ProtoWriter();
  for (const rm of request.resourceMetrics) {
    // ResourceMetrics: resource = 1, scope_metrics = 2.
    w.message(1, (r) => {
      r.message(1, (res) => writeAttributes(res, 1, rm.resource.attributes));
      for (const sm of rm.scopeMetrics) {
        // ScopeMetrics: scope = 1 (InstrumentationScope: name = 1, version = 2), metrics = 2.
        r.message(2, (s) => {
          s.message(1, (scope) => scope.string(1, sm.scope.name).string(2, sm.scope.version));
          for (const metric of sm.metrics) s.message(2, (m) => writeMetric(m, metric));
        });
      }
    });
  }
  return w.finish();
}

/** KeyValue (key = 1, value = 2: AnyValue with string_value = 1), repeated in `field`. */
function writeAttributes(w: ProtoWriter, field: number, attributes: OtlpAttribute[]): void {
  for (const a of attributes) {
    w.message(field, (kv) => kv.string(1, a.key).message(2, (v) => v.string(1, a.value.stringValue)));
  }
}

/** Metric: name = 1, description = 2, unit = 3; gauge = 5, sum = 7, exponential_histogram = 10. */
function writeMetric(w: ProtoWriter, metric: OtlpMetric): void {
  w.string(1, metric.name);
  if (metric.description) w.string(2, metric.description);
  if (metric.unit) w.string(3, metric.unit);
  if ("gauge" in metric) {
    w.message(5, (g) => metric.gauge.dataPoints.forEach((p) => g.message(1, (n) => writeNumberPoint(n, p))));
  } else if ("sum" in metric) {
    // Sum: data_points = 1, aggregation_temporality = 2, is_monotonic = 3.
    const { dataPoints, aggregationTemporality, isMonotonic } = metric.sum;
    w.message(7, (s) => {
      for (const p of dataPoints) s.message(1, (n) => writeNumberPoint(n, p));
      s.uint(2, aggregationTemporality);
      if (isMonotonic) s.uint(3, 1);
    });
  } else {
    // ExponentialHistogram: data_points = 1, aggregation_temporality = 2.
    const { dataPoints, aggregationTemporality } = metric.exponentialHistogram;
    w.message(10, (h) => {
      for (const p of dataPoints) h.message(1, (e) => writeExponentialPoint(e, p));
      h.uint(2, aggregationTemporality);
    });
  }
}

/** NumberDataPoint: attributes 7, start/time_unix_nano 2/3 (fixed64), as_double 4, as_int 6 (sfixed64). */
function writeNumberPoint(w: ProtoWriter, p: OtlpNumberPoint): void {
  writeAttributes(w, 7, p.attributes);
  w.fixed64(2, BigInt(p.startTimeUnixNano)).fixed64(3, BigInt(p.timeUnixNano));
  if ("asInt" in p) w.fixed64(6, BigInt(p.asInt));
  else w.double(4, p.asDouble);
}

/** ExponentialHistogramDataPoint's fields (times 2/3, counts fixed64, scale sint32, positive 8, min 12). */
function writeExponentialPoint(w: ProtoWriter, p: OtlpExponentialPoint): void {
  writeAttributes(w, 1, p.attributes);
  w.fixed64(2, BigInt(p.startTimeUnixNano)).fixed64(3, BigInt(p.timeUnixNano));
  w.fixed64(4, BigInt(p.count)).double(5, p.sum);
  if (p.scale !== 0) w.sint(6, p.scale);
  w.fixed64(7, BigInt(p.zeroCount));
  const { offset, bucketCounts } = p.positive;
  w.message(8, (b) => {
    if (offset !== 0) b.sint(1, offset);
    if (bucketCounts.length > 0) b.packedUint(2, bucketCounts.map(Number));
  });
  if (p.min !== undefined) w.double(12, p.min);
  if (p.max !== undefined) w.double(13, p.max);
  if (p.zeroThreshold !== 0) w.double(14, p.zeroThreshold);
}

interface Series {
  labels: [string, string][];
  samples: { value: number; timestampMs: number }[];
  histograms: { histogram: NativeHistogram; timestampMs: number }[];
}

/** prompb MetricMetadata.MetricType. */
const TYPE = { counter: 1, gauge: 2, histogram: 3 } as const;

/** The series of a batch's families, in first-seen order. */
export function remoteWriteSeries(families: ExportFamily[]): Series[] {
  const byKey = new Map<string, Series>();
  for (const f of families) {
    if (f.prom === undefined) continue;
    for (const { point, labels, value } of f.samples) {
      const all = Object.entries({ ...point.labels, ...labels, __name__: f.prom }).sort(([a], [b]) =>
        a < b ? -1 : 1
      );
      const key = JSON.stringify(all);
      let series = byKey.get(key);
      if (series === undefined) byKey.set(key, series = { labels: all, samples: [], histograms: [] });
      if (typeof value === "number") series.samples.push({ value, timestampMs: point.timestampMs });
      else series.histograms.push({ histogram: value, timestampMs: point.timestampMs });
    }
  }
  return [...byKey.values()];
}

/** The encoded (uncompressed) `WriteRequest` of a batch of points, with every family's type and help. */
export function encodeWriteRequest(points: ExportPoint[]): Uint8Array {
  const w = new ProtoWriter();
  const families = exportFamilies(points);
  for (const series of remoteWriteSeries(families)) {
    w.message(1, (ts) => {
      for (const [name, value] of series.labels) ts.message(1, (l) => l.string(1, name).string(2, value));
      for (const s of series.samples) ts.message(2, (m) => m.double(1, s.value).uint(2, s.timestampMs));
      for (const h of series.histograms) ts.message(4, (m) => writeHistogram(m, h.histogram, h.timestampMs));
    });
  }
  for (const f of families) {
    const name = f.prom;
    if (name === undefined) continue;
    w.message(3, (m) => m.uint(1, TYPE[f.type]).string(2, name).string(4, f.help).string(5, unitOf(name)));
  }
  return w.finish();
}

function unitOf(name: string): string {
  return name.endsWith("_seconds")
    ? "seconds"
    : name.endsWith("_bytes") || name.includes("_bytes_")
    ? "bytes"
    : "";
}

/** prompb.Histogram with integer counts: count, sum, schema, zero bucket, positive spans and deltas. */
function writeHistogram(w: ProtoWriter, h: NativeHistogram, timestampMs: number): void {
  const { spans, deltas } = spansAndDeltas(h);
  w.uint(1, h.count).double(3, h.sumSec).sint(4, h.schema).double(5, 0).uint(6, h.zeroCount);
  for (const span of spans) w.message(11, (s) => s.sint(1, span.offset).uint(2, span.length));
  if (deltas.length > 0) w.packedSint(12, deltas);
  w.uint(15, timestampMs);
}
