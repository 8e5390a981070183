import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { RunAggregator } from "./aggregate.ts";
import { IntervalRecorder } from "./recorder.ts";
import type { IntervalSample } from "./sample.ts";
import { decodeHistogram } from "../../results/histogram.ts";
import type { EndpointInfo } from "../endpoint_table.ts";

const INTERVAL_MS = 100;
const ORIGIN_MS = 5000;
const ENDPOINTS: EndpointInfo[] = [
  { name: "GET /a", method: "GET", tags: {}, requests: 1 },
  { name: "GET /b", method: "GET", tags: { tier: "db" }, requests: 1 },
  { name: "POST /c", method: "POST", tags: {}, requests: 1 },
];
const recorder = () =>
  new IntervalRecorder({ intervalMs: INTERVAL_MS, originMs: ORIGIN_MS, uncorrected: false, endpoints: 3 });

/** A deterministic stream over ~1 s: endpoint k % 3, statuses, errors of an endpoint and of none, bytes. */
function feed(target: (k: number) => IntervalRecorder, count: number): number {
  let nowMs = ORIGIN_MS + 21;
  for (let k = 0; k < count; k++) {
    nowMs += 0.31 + (k % 5) * 0.1;
    const r = target(k), e = k % 3;
    if (k % 41 === 0) r.recordError(nowMs, "timeout", "t", e);
    else if (k % 89 === 0) r.recordError(nowMs, "connect", "refused");
    else r.recordResponse(nowMs, k % 13 === 0 ? 503 : 200, 500 + e * 10_000 + ((k * 7919) % 3000), 0, e);
    r.addBytesRead(nowMs, 100 + e, e);
    r.addBytesWritten(nowMs, 10, e);
  }
  return nowMs;
}

function drainAll(recorders: IntervalRecorder[], endMs: number): IntervalSample[][] {
  return recorders.map((r) => r.drain(endMs + INTERVAL_MS, true));
}

function finish(samples: IntervalSample[][]) {
  const agg = new RunAggregator({
    intervalMs: INTERVAL_MS,
    uncorrected: false,
    workers: samples.length,
    endpoints: ENDPOINTS,
  });
  samples.forEach((worker, w) => worker.forEach((s) => agg.add(s, w)));
  return agg.finish(2);
}

Deno.test("per-endpoint counts add up to the run's; latency is recorded once, the run's is the endpoints' sum", () => {
  const r = recorder();
  const end = feed(() => r, 3000);
  const stats = finish(drainAll([r], end));
  const endpoints = stats.endpoints!;
  assertEquals(endpoints.map((e) => e.name), ["GET /a", "GET /b", "POST /c"]);
  assertEquals(endpoints[1].tags, { tier: "db" });
  const sum = (f: (e: (typeof endpoints)[number]) => number) => endpoints.reduce((a, e) => a + f(e), 0);
  assertEquals(sum((e) => e.requests), stats.requests);
  assertEquals(sum((e) => e.bytesRead), stats.bytesRead);
  assertEquals(sum((e) => e.bytesWritten), stats.bytesWritten);
  // A connect failure belongs to no endpoint: the run counts it, the endpoints do not.
  assertEquals(sum((e) => e.errors.timeout ?? 0), stats.errors.timeout);
  assertEquals(sum((e) => e.errors.connect ?? 0), 0);
  assert503(endpoints, stats.statusCodes["503"]);
  assertEquals(
    sum((e) => decodeHistogram(e.histogramEncoded!).totalCount),
    decodeHistogram(stats.histogramEncoded).totalCount,
  );
  for (const e of endpoints) {
    assertEquals(e.intervals.requests.reduce((a, b) => a + b, 0), e.requests);
    assertEquals(e.intervals.requests.length, stats.intervals.length);
  }
  // Each endpoint's latency is its own: endpoint k's are 10 ms apart.
  assertEquals(endpoints.map((e) => Math.floor(e.latencyMs!.p50 / 10)), [0, 1, 2]);
});

function assert503(endpoints: NonNullable<ReturnType<typeof finish>["endpoints"]>, run: number | undefined) {
  assertEquals(endpoints.reduce((a, e) => a + (e.statusCodes["503"] ?? 0), 0), run);
}

Deno.test("4 workers aggregate to the same per-endpoint numbers as one", () => {
  const one = recorder();
  const end = feed(() => one, 3000);
  const four = [recorder(), recorder(), recorder(), recorder()];
  feed((k) => four[(k >> 4) % 4], 3000);
  assertEquals(finish(drainAll(four, end)).endpoints, finish(drainAll([one], end)).endpoints);
});

Deno.test("a run of one endpoint keeps no per-endpoint counters: its endpoint is the run", () => {
  const r = new IntervalRecorder({ intervalMs: INTERVAL_MS, originMs: ORIGIN_MS, uncorrected: false });
  const end = feed(() => r, 500);
  const samples = drainAll([r], end);
  assertEquals(samples[0].some((s) => s.endpoints !== undefined), false);
  const agg = new RunAggregator({
    intervalMs: INTERVAL_MS,
    uncorrected: false,
    endpoints: ENDPOINTS.slice(0, 1),
  });
  samples[0].forEach((s) => agg.add(s));
  const stats = agg.finish(1);
  assertEquals(stats.endpoints!.length, 1);
  assertEquals(stats.endpoints![0].requests, stats.requests);
  assertEquals(stats.endpoints![0].histogramEncoded, stats.histogramEncoded);
  assertEquals(stats.endpoints![0].statusCodes, stats.statusCodes);
});
