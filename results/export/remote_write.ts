/**
 * @module
 * Export points as a Prometheus remote-write 1.0 `WriteRequest` (latency as a native histogram,
 * schema 8); cli/metrics_out/sender.ts compresses and posts it. Pure.
 */
import { ProtoWriter } from "./protobuf_writer.ts";
import { COUNTERS, type ExportPoint, METRICS, WS_COUNTERS } from "./export_point.ts";
import { type NativeHistogram, spansAndDeltas } from "./native_histogram.ts";

interface Series {
  labels: [string, string][];
  samples: { value: number; timestampMs: number }[];
  histograms: { histogram: NativeHistogram; timestampMs: number }[];
}

/** prompb MetricMetadata.MetricType. */
const TYPE = { counter: 1, gauge: 2, histogram: 3 } as const;

/** The metadata of every family sent: type and help (Prometheus shows them; ignored where unsupported). */
const FAMILIES: { name: string; type: number; help: string }[] = [
  ...COUNTERS.map((c) => ({ name: c.prom, type: TYPE.counter, help: c.help })),
  ...WS_COUNTERS.map((c) => ({ name: c.prom, type: TYPE.counter, help: c.help })),
  { name: METRICS.latency.prom, type: TYPE.histogram, help: "request latency (from the intended send time)" },
  { name: METRICS.errors.prom, type: TYPE.counter, help: "failed requests by kind" },
  { name: METRICS.inFlight.prom, type: TYPE.gauge, help: "requests in flight at the interval's end" },
  { name: METRICS.connections.prom, type: TYPE.gauge, help: "open connections at the interval's end" },
  { name: METRICS.cpu.prom, type: TYPE.gauge, help: "target process CPU, % of one core" },
  { name: METRICS.rss.prom, type: TYPE.gauge, help: "target process resident memory" },
  { name: METRICS.endpointRequests.prom, type: TYPE.counter, help: "responses of one endpoint, any status" },
  { name: METRICS.endpointErrors.prom, type: TYPE.counter, help: "failed requests of one endpoint" },
  {
    name: METRICS.endpointLatency.prom,
    type: TYPE.histogram,
    help: "one endpoint's request latency (from the intended send time)",
  },
];

/** The series of a batch of points, in first-seen order. */
export function remoteWriteSeries(points: ExportPoint[]): Series[] {
  const byKey = new Map<string, Series>();
  const seriesOf = (name: string, labels: Record<string, string>, extra: Record<string, string> = {}) => {
    const all = Object.entries({ ...labels, ...extra, __name__: name }).sort(([a], [b]) => a < b ? -1 : 1);
    const key = JSON.stringify(all);
    let series = byKey.get(key);
    if (series === undefined) {
      series = { labels: all, samples: [], histograms: [] };
      byKey.set(key, series);
    }
    return series;
  };
  for (const p of points) {
    const sample = (name: string, value: number, extra?: Record<string, string>) =>
      seriesOf(name, p.labels, extra).samples.push({ value, timestampMs: p.timestampMs });
    for (const c of COUNTERS) sample(c.prom, p.counters[c.key]);
    for (const c of p.ws === null ? [] : WS_COUNTERS) sample(c.prom, p.ws![c.key]);
    for (const n of p.named ?? []) if (n.prom !== undefined) sample(n.prom, n.value, n.labels);
    for (const [kind, count] of Object.entries(p.errors)) sample(METRICS.errors.prom, count, { kind });
    sample(METRICS.inFlight.prom, p.inFlight);
    sample(METRICS.connections.prom, p.connections);
    for (const t of p.telemetry) {
      if (t.cpuPercent !== undefined) sample(METRICS.cpu.prom, t.cpuPercent, { process: t.process });
      if (t.rssBytes !== undefined) sample(METRICS.rss.prom, t.rssBytes, { process: t.process });
    }
    seriesOf(METRICS.latency.prom, p.labels).histograms.push({
      histogram: p.latency,
      timestampMs: p.timestampMs,
    });
    for (const e of p.endpoints) {
      const endpoint = { endpoint: e.name };
      sample(METRICS.endpointRequests.prom, e.requests, endpoint);
      sample(METRICS.endpointErrors.prom, e.errors, endpoint);
      seriesOf(METRICS.endpointLatency.prom, p.labels, endpoint).histograms.push({
        histogram: e.latency,
        timestampMs: p.timestampMs,
      });
    }
  }
  return [...byKey.values()];
}

/** The encoded (uncompressed) `WriteRequest` of a batch of points. */
export function encodeWriteRequest(points: ExportPoint[]): Uint8Array {
  const w = new ProtoWriter();
  for (const series of remoteWriteSeries(points)) {
    w.message(1, (ts) => {
      for (const [name, value] of series.labels) ts.message(1, (l) => l.string(1, name).string(2, value));
      for (const s of series.samples) ts.message(2, (m) => m.double(1, s.value).uint(2, s.timestampMs));
      for (const h of series.histograms) ts.message(4, (m) => writeHistogram(m, h.histogram, h.timestampMs));
    });
  }
  for (const f of [...FAMILIES, ...namedFamilies(points)]) {
    w.message(3, (m) => m.uint(1, f.type).string(2, f.name).string(4, f.help).string(5, unitOf(f.name)));
  }
  return w.finish();
}

function namedFamilies(points: ExportPoint[]): { name: string; type: number; help: string }[] {
  const byName = new Map<string, { name: string; type: number; help: string }>();
  for (const n of points.flatMap((p) => p.named ?? [])) {
    if (n.prom !== undefined) byName.set(n.prom, { name: n.prom, type: TYPE[n.type], help: n.help });
  }
  return [...byName.values()];
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
