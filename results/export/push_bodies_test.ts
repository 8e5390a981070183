import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { createHistogram, encodeHistogram } from "../histogram.ts";
import { emptyIntervalCounts } from "../interval_counts.ts";
import type { IntervalDelta } from "./interval_delta.ts";
import { RunSeries } from "./run_series.ts";
import { encodeOtlpRequest, otlpRequest } from "./push_bodies.ts";
import { decodeOtlpProtobuf } from "../../tests/fixtures/otlp_decode.ts";

/** Proto3 equality: a field at its default (0, "0", "", false, empty list, no message) is one left out. */
function withoutDefaults(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDefaults);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const isDefault = v === 0 || v === "0" || v === "" || v === false || (Array.isArray(v) && v.length === 0);
    if (!isDefault && v !== undefined && v !== null) out[key] = withoutDefaults(v);
  }
  return out;
}

/** Two runs' points: counters, errors by kind, gauges, CPU/RSS telemetry and a wide latency histogram. */
function points() {
  const out = [];
  for (const run of ["a", "b"]) {
    const series = new RunSeries({ experiment: "e", run }, 1_700_000_000_000);
    for (let index = 0; index < 3; index++) {
      const h = createHistogram();
      for (let i = 1; i <= 400; i++) h.recordValue(i * i * (index + 1));
      const delta: IntervalDelta = {
        ...emptyIntervalCounts(),
        requests: 400,
        failedStatus: index,
        bytesRead: 2 ** 40 + index,
        index,
        endEpochMs: 1_700_000_000_250 + index * 250,
        errorKinds: index === 2 ? { timeout: 3 } : {},
        inFlight: index,
        connections: 4,
        histograms: [encodeHistogram(h)],
        late: false,
      };
      series.fold(delta);
      out.push(series.point(delta, [{ process: "target", cpuPercent: 12.5, rssBytes: 50_000_000 }]));
    }
  }
  return out;
}

Deno.test("OTLP protobuf: decoded with protobufjs against OTLP's .proto, it is the JSON request exactly", () => {
  const request = otlpRequest(points(), "0.1.0");
  const decoded = decodeOtlpProtobuf(encodeOtlpRequest(request));
  assertEquals(withoutDefaults(decoded), withoutDefaults(JSON.parse(JSON.stringify(request))));
  // Spot checks of what the equality covers: a 64-bit time, a count beyond 2^32, the histogram.
  const metrics = decoded.resourceMetrics[0].scopeMetrics[0].metrics;
  const read = metrics.find((m: any) => m.name === "loadlab.read").sum;
  assertEquals(read.dataPoints.at(-1).asInt, String(3 * 2 ** 40 + 3), "cumulative, beyond 2^32");
  assertEquals(read.dataPoints[0].timeUnixNano, "1700000000250000000");
  assertEquals([read.aggregationTemporality, read.isMonotonic], [2, true]);
  const latency = metrics.find((m: any) => m.name === "loadlab.request.duration").exponentialHistogram;
  const last = latency.dataPoints.at(-1);
  assertEquals([last.count, last.scale], ["1200", 8]);
  assertEquals(last.positive.bucketCounts.map(Number).reduce((a: number, b: number) => a + b, 0), 1200);
  // Latencies below a second: a negative bucket offset (zig-zag sint32 on the wire).
  ok(last.positive.offset < 0 && last.min > 0 && last.max > last.min);
  const cpu = metrics.find((m: any) => m.name === "loadlab.target.cpu").gauge;
  assertEquals(cpu.dataPoints[0].asDouble, 12.5);
});
