/**
 * @module
 * Export points as a Prometheus remote-write 1.0 `WriteRequest` (latency as a native histogram,
 * schema 8); cli/metrics_out/sender.ts compresses and posts it. Pure.
 */
import { ProtoWriter } from "./protobuf_writer.ts";
import { exportFamilies, type ExportFamily, type ExportPoint } from "./export_point.ts";
import { type NativeHistogram, spansAndDeltas } from "./native_histogram.ts";

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
    if (f.prom === undefined) continue;
    w.message(
      3,
      (m) => m.uint(1, TYPE[f.type]).string(2, f.prom!).string(4, f.help).string(5, unitOf(f.prom!)),
    );
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
