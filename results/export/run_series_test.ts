import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { createHistogram, encodeHistogram } from "../histogram.ts";
import { emptyIntervalCounts } from "../interval_counts.ts";
import { ERROR_KINDS } from "../schema/keys.ts";
import type { IntervalDelta } from "./interval_delta.ts";
import { exportFamilies, labelName, runLabels } from "./export_point.ts";
import { RunSeries } from "./run_series.ts";
import { otlpRequest, remoteWriteSeries, unixNano } from "./push_bodies.ts";

function delta(index: number, latenciesUs: number[], extra: Partial<IntervalDelta> = {}): IntervalDelta {
  const h = createHistogram();
  for (const us of latenciesUs) h.recordValue(us);
  return {
    ...emptyIntervalCounts(),
    requests: latenciesUs.length,
    index,
    endEpochMs: 1_700_000_000_250 + index * 250,
    errorKinds: {},
    inFlight: 1,
    connections: 2,
    histograms: latenciesUs.length ? [encodeHistogram(h)] : [],
    late: false,
    ...extra,
  };
}

Deno.test("RunSeries: points are cumulative; a late sample adds to the totals of the next point", () => {
  const series = new RunSeries({ run: "r" }, 1_700_000_000_000.4);
  const first = delta(0, [100, 200], { errorKinds: { timeout: 1 }, lateSends: 3 });
  series.fold(first);
  const p0 = series.point(first, []);
  assertEquals([p0.counters.requests, p0.counters.lateSends, p0.errors.timeout, p0.latency.count], [
    2,
    3,
    1,
    2,
  ]);
  assertEquals(Object.keys(p0.errors).sort(), [...ERROR_KINDS].sort());
  assertEquals([p0.startEpochMs, p0.timestampMs], [1_700_000_000_000, 1_700_000_000_250]);
  series.fold(delta(0, [300], { late: true }));
  const second = delta(1, [400, 500, 600], { errorKinds: { timeout: 2, connect: 1 } });
  series.fold(second);
  const p1 = series.point(second, [{ process: "target", cpuPercent: 50 }]);
  assertEquals([p1.counters.requests, p1.errors.timeout, p1.errors.connect, p1.latency.count], [6, 3, 1, 6]);
  assertEquals(p0.counters.requests, 2, "an earlier point is not changed by later folds");
  assertEquals(p1.telemetry, [{ process: "target", cpuPercent: 50 }]);
});

Deno.test("RunSeries: late samples after the last interval get a closing point when folded, else none", () => {
  const series = new RunSeries({ run: "r" }, 0);
  const last = delta(3, [100]);
  series.fold(last);
  const p = series.point(last, []);
  assertEquals(series.closingPoint(p.timestampMs + 500), null);
  series.fold(delta(2, [200, 300], { late: true }));
  const closing = series.closingPoint(p.timestampMs + 500)!;
  assertEquals([closing.timestampMs, closing.counters.requests, closing.latency.count], [
    p.timestampMs + 500,
    3,
    3,
  ]);
  assertEquals(series.closingPoint(p.timestampMs + 600), null);
  // Folded within the last point's millisecond: still 1 ms after it.
  series.fold(delta(2, [400], { late: true }));
  assertEquals(series.closingPoint(closing.timestampMs)!.timestampMs, closing.timestampMs + 1);
  // A point never repeats an instant, even when an interval's end does.
  series.fold(last);
  assertEquals(series.point(last, []).timestampMs, closing.timestampMs + 2);
});

Deno.test("runLabels: experiment coordinates, sweep values and the segment as valid label names", () => {
  assertEquals(
    runLabels({
      experiment: "e",
      variant: "cached",
      load: "steady",
      name: "cached/steady/load.rate=800#2",
      repeat: 1,
      sweeps: [{ parameter: "load.rate", value: 800 }],
      segment: { index: 1, count: 4 },
    }),
    {
      experiment: "e",
      variant: "cached",
      load: "steady",
      run: "cached/steady/load.rate=800#2",
      repeat: "2",
      sweep_load_rate: "800",
      segment: "1/4",
    },
  );
  assertEquals(labelName("9-lives"), "_9_lives");
  // A categorical sweep's word is the label's value as written.
  const words = runLabels({
    experiment: "e",
    name: "app/few/load.protocol=h2",
    sweeps: [{ parameter: "load.protocol", value: "h2" }],
  });
  assertEquals(words.sweep_load_protocol, "h2");
});

Deno.test("remote write series: sorted labels with __name__, one series per metric and label set, time order", () => {
  const series = new RunSeries({ run: "r", experiment: "e" }, 0);
  const points = [0, 1, 2].map((i) => {
    const d = delta(i, [1000 * (i + 1)]);
    series.fold(d);
    return series.point(d, [{ process: "target", rssBytes: 1e6 }]);
  });
  const all = remoteWriteSeries(exportFamilies(points));
  for (const s of all) {
    const names = s.labels.map(([name]) => name);
    assertEquals(names, [...names].sort(), "labels sorted by name");
    ok(names.includes("__name__"));
    const times = [...s.samples, ...s.histograms].map((x) => x.timestampMs);
    assertEquals(times, [...times].sort((a, b) => a - b));
    assertEquals(times.length, 3);
  }
  const names = all.map((s) => s.labels.find(([n]) => n === "__name__")![1]);
  assertEquals(names.filter((n) => n === "loadlab_errors_total").length, ERROR_KINDS.length);
  ok(names.includes("loadlab_request_duration_seconds") && names.includes("loadlab_target_rss_bytes"));
  ok(!names.includes("loadlab_target_cpu_percent"), "no series for a gauge never sampled");
});

Deno.test("OTLP JSON: cumulative sums, an exponential histogram with the same counts, nanosecond strings", () => {
  const series = new RunSeries({ run: "r" }, 1_700_000_000_000);
  const d = delta(0, [150, 150, 4000]);
  series.fold(d);
  const body = otlpRequest([series.point(d, [])], "0.1.0") as any;
  const metrics = body.resourceMetrics[0].scopeMetrics[0].metrics;
  const requests = metrics.find((m: any) => m.name === "loadlab.requests");
  assertEquals([requests.sum.aggregationTemporality, requests.sum.isMonotonic], [2, true]);
  assertEquals(requests.sum.dataPoints[0].asInt, "3");
  assertEquals(requests.sum.dataPoints[0].timeUnixNano, "1700000000250000000");
  const histogram = metrics.find((m: any) => m.name === "loadlab.request.duration").exponentialHistogram;
  const point = histogram.dataPoints[0];
  assertEquals([point.count, point.scale, point.zeroCount], ["3", 8, "0"]);
  assertEquals(point.positive.bucketCounts.map(Number).reduce((a: number, b: number) => a + b, 0), 3);
  assertEquals(unixNano(1.6), "2000000");
  ok(!metrics.some((m: any) => m.name === "loadlab.target.cpu"), "no empty gauge metrics");
});

Deno.test("RunSeries: a ws run's handshakes and messages are cumulative series; an HTTP run has none", () => {
  const series = new RunSeries({ run: "ws" }, 1_700_000_000_000);
  const first = delta(0, [100], { ws: { handshakes: 2, messagesSent: 5, messagesReceived: 4 } });
  series.fold(first);
  const p0 = series.point(first, []);
  const second = delta(1, [100], { ws: { handshakes: 0, messagesSent: 3, messagesReceived: 4 } });
  series.fold(second);
  const p1 = series.point(second, []);
  assertEquals([p0.ws, p1.ws], [
    { handshakes: 2, messagesSent: 5, messagesReceived: 4 },
    { handshakes: 2, messagesSent: 8, messagesReceived: 8 },
  ]);
  const values = (name: string) =>
    remoteWriteSeries(exportFamilies([p0, p1])).find((s) =>
      s.labels.some(([k, v]) => k === "__name__" && v === name)
    )
      ?.samples.map((s) => s.value);
  assertEquals(values("loadlab_ws_sent_messages_total"), [5, 8]);
  assertEquals(values("loadlab_ws_handshakes_total"), [2, 2]);
  const http = new RunSeries({ run: "http" }, 1_700_000_000_000);
  http.fold(delta(0, [100]));
  const point = http.point(delta(0, [100]), []);
  assertEquals(point.ws, null);
  ok(
    !remoteWriteSeries(exportFamilies([point])).some((s) =>
      s.labels.some(([, v]) => v.startsWith("loadlab_ws_"))
    ),
  );
  const otlp = otlpRequest([point], "test");
  ok(!JSON.stringify(otlp).includes("loadlab.ws."), "no ws metric for an HTTP run");
});
