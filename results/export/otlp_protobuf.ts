/**
 * @module
 * The OTLP request (otlp_json.ts) as protobuf bytes, OTLP/HTTP's default encoding; field numbers
 * are opentelemetry-proto's. Pure.
 */
import { ProtoWriter } from "./protobuf_writer.ts";
import type {
  OtlpAttribute,
  OtlpExponentialPoint,
  OtlpMetric,
  OtlpNumberPoint,
  OtlpRequest,
} from "./otlp_json.ts";

/** The encoded `ExportMetricsServiceRequest`. */
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
