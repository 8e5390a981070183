import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { RunAggregator } from "./aggregate.ts";
import { IntervalRecorder } from "./recorder.ts";
import type { IntervalSample } from "./sample.ts";
import { MAX_ENDPOINTS, OTHER_ENDPOINT } from "../endpoint_limits.ts";
import { failedStatusOf } from "../../results/thresholds/selector.ts";
import { decodeHistogram, mergeEncoded } from "../../results/histogram.ts";

const INTERVAL_MS = 100;
const ORIGIN_MS = 5000;
const named = () =>
  new IntervalRecorder({
    intervalMs: INTERVAL_MS,
    originMs: ORIGIN_MS,
    uncorrected: false,
    namedEndpoints: true,
  });

/** Response k named `names[k % names.length]` (its latency 10 ms per name index, mod 3), on `target(k)`. */
function feed(target: (k: number) => IntervalRecorder, names: string[], count: number): number {
  let nowMs = ORIGIN_MS + 11;
  for (let k = 0; k < count; k++) {
    nowMs += 0.37;
    const r = target(k);
    const i = k % names.length;
    const e = r.endpointIndex(names[i]);
    if (k % 29 === 0) r.recordError(nowMs, "timeout", "t", e);
    else r.recordResponse(nowMs, 200, 500 + (i % 3) * 10_000, 0, e);
  }
  return nowMs;
}

function finish(recorders: IntervalRecorder[], endMs: number, intervalHistograms?: "endpoints") {
  const samples: IntervalSample[][] = recorders.map((r) => r.drain(endMs + INTERVAL_MS, true));
  const agg = new RunAggregator({
    intervalMs: INTERVAL_MS,
    uncorrected: false,
    workers: samples.length,
    endpoints: [],
    namedEndpoints: true,
    ...(intervalHistograms ? { intervalHistograms } : {}),
  });
  samples.forEach((worker, w) => worker.forEach((s) => agg.add(s, w)));
  return agg.finish(2);
}

Deno.test("names added as sent, in each worker's own order, merge by name to one worker's numbers", () => {
  const one = named();
  const end = feed(() => one, ["a", "b", "c"], 2000);
  // Worker 0 meets the names in the order c, b, a; worker 1 in a, b, c: their indexes differ.
  const two = [named(), named()];
  two[0].endpointIndex("c");
  two[0].endpointIndex("b");
  feed((k) => two[(k >> 3) % 2], ["a", "b", "c"], 2000);
  const byName = (s: ReturnType<typeof finish>) => [...s.endpoints!].sort((x, y) => x.name < y.name ? -1 : 1);
  const single = finish([one], end);
  assertEquals(single.endpoints!.map((e) => e.name), ["a", "b", "c"]);
  assertEquals(single.endpoints!.reduce((a, e) => a + e.requests, 0), single.requests);
  assertEquals(single.endpoints!.map((e) => Math.floor(e.latencyMs!.p50 / 10)), [0, 1, 2]);
  assertEquals(byName(finish(two, end)), byName(single));
});

Deno.test("a name past the cap counts under (other), in a worker and across workers", () => {
  const names = Array.from({ length: MAX_ENDPOINTS + 30 }, (_, k) => `n${k}`);
  const w0 = named(), w1 = named();
  // Each worker alone stays under the cap with its 47 names; together they pass it.
  const end = feed((k) => (k % names.length) < 47 ? w0 : w1, names, names.length * 4);
  const stats = finish([w0, w1], end);
  assertEquals(stats.endpoints!.length, MAX_ENDPOINTS + 1);
  assertEquals(stats.endpoints!.at(-1)!.name, OTHER_ENDPOINT);
  assertEquals(stats.endpoints!.reduce((a, e) => a + e.requests, 0), stats.requests);
  const lone = named();
  const loneEnd = feed(() => lone, names, names.length * 2);
  const alone = finish([lone], loneEnd);
  assertEquals(alone.endpoints!.length, MAX_ENDPOINTS + 1);
  assertEquals(alone.endpoints!.find((e) => e.name === OTHER_ENDPOINT)!.requests, 30 * 2 - 2);
});

Deno.test("the intervals handed to metrics outputs carry a script's endpoints by name, adding up across workers", () => {
  const two = [named(), named()];
  two[1].endpointIndex("b");
  const end = feed((k) => two[k % 2], ["a", "b"], 1000);
  const labelled = new Map<string, number>();
  const agg = new RunAggregator({
    intervalMs: INTERVAL_MS,
    uncorrected: false,
    workers: 2,
    endpoints: [],
    namedEndpoints: true,
    onInterval: (delta) => {
      for (const e of delta.endpoints ?? []) labelled.set(e.name, (labelled.get(e.name) ?? 0) + e.requests);
    },
  });
  two.forEach((r, w) => r.drain(end + INTERVAL_MS, true).forEach((s) => agg.add(s, w)));
  const stats = agg.finish(1);
  assertEquals([...labelled].sort(), stats.endpoints!.map((e) => [e.name, e.requests]).sort());
});

Deno.test("a script's tags keep one name's requests apart by tag set, across workers, and reach the results", () => {
  const two = [named(), named()];
  const html = Object.freeze({ kind: "html" });
  let nowMs = ORIGIN_MS + 11;
  // Latencies under 11 ms: no send is intended before the origin (the warm-up's).
  for (let k = 0; k < 300; k++) {
    nowMs += 0.37;
    const r = two[k % 2];
    // The same name: untagged, tagged by a reused frozen object, and by a fresh object each time.
    const e = k % 3 === 0
      ? r.endpointIndex("GET /")
      : k % 3 === 1
      ? r.endpointIndex("GET /", html)
      : r.endpointIndex("GET /", { kind: "css", staticAsset: "yes" });
    r.recordResponse(nowMs, 200, 500 + (k % 3) * 3_000, 0, e);
  }
  const stats = finish(two, nowMs);
  const rows = stats.endpoints!.map((e) => [e.name, e.tags ?? {}, e.requests]);
  assertEquals(rows.sort((a, b) => JSON.stringify(a) < JSON.stringify(b) ? -1 : 1), [
    ["GET /", { kind: "css", staticAsset: "yes" }, 100],
    ["GET /", { kind: "html" }, 100],
    ["GET /", {}, 100],
  ]);
});

Deno.test("live names the three busiest endpoints of the last second with their rates; one endpoint none", () => {
  const r = named();
  const end = feed(() => r, ["a", "a", "a", "a", "b", "b", "b", "c", "c", "d"], 2000);
  const agg = new RunAggregator({
    intervalMs: INTERVAL_MS,
    uncorrected: false,
    endpoints: [],
    namedEndpoints: true,
  });
  for (const sample of r.drain(end + INTERVAL_MS, true)) agg.add(sample);
  const live = agg.live();
  assertEquals(live.endpoints!.map((e) => e.name), ["a", "b", "c"]);
  const [a, b, c] = live.endpoints!.map((e) => e.rps);
  ok(a > b && b > c && c > 0, JSON.stringify(live.endpoints));
  // Their rates are the run's over the same second, shared 4:3:2 (of 10, less the timeouts).
  ok(Math.abs(a / live.rps - 0.4) < 0.05, `${a} of ${live.rps}`);
  const one = new RunAggregator({
    intervalMs: INTERVAL_MS,
    uncorrected: false,
    endpoints: [],
    namedEndpoints: true,
  });
  const single = named();
  for (const sample of single.drain(feed(() => single, ["only"], 500) + INTERVAL_MS, true)) one.add(sample);
  assertEquals(one.live().endpoints, undefined);
});

Deno.test("a request's own expected statuses: its endpoint apart, its answers failed by them alone", () => {
  const workers = [named(), named()];
  let nowMs = ORIGIN_MS + 11;
  for (let k = 0; k < 40; k++) {
    const r = workers[k % 2];
    // The same name and tags, half expecting their 404, half the run's statuses.
    const e = r.endpointIndex("item", { kind: "x" }, "GET", k % 4 < 2 ? [[404, 404]] : undefined);
    r.recordResponse(nowMs += 0.5, 404, 1000, 0, e);
  }
  const run = finish(workers, nowMs);
  const own = run.endpoints!.map((e) => [e.name, e.expectedStatuses, e.statusCodes]);
  assertEquals(own, [["item", [[404, 404]], { 404: 20 }], ["item", undefined, { 404: 20 }]]);
  assertEquals(run.successRate, 0.5);
  assertEquals(failedStatusOf({ config: {}, statusCodes: run.statusCodes, endpoints: run.endpoints }), 20);
});

Deno.test("one name sent by two methods is two endpoints, each with its method, across workers", () => {
  const two = [named(), named()];
  const tier = Object.freeze({ tier: "api" });
  let nowMs = ORIGIN_MS + 11;
  for (let k = 0; k < 200; k++) {
    nowMs += 0.37;
    const r = two[k % 2];
    // k6's `tags: { name: "Update" }` on a PUT and a PATCH, tagged alike by a reused frozen object.
    const e = r.endpointIndex("Update", tier, k % 4 < 2 ? "PUT" : "PATCH");
    r.recordResponse(nowMs, 200, 500, 0, e);
  }
  const rows = finish(two, nowMs).endpoints!.map((e) => [e.name, e.method, e.tags, e.requests]);
  assertEquals(rows.sort((a, b) => JSON.stringify(a) < JSON.stringify(b) ? -1 : 1), [
    ["Update", "PATCH", { tier: "api" }, 100],
    ["Update", "PUT", { tier: "api" }, 100],
  ]);
});

Deno.test("intervalHistograms endpoints: each name's intervals add up to its histogram; else none are kept", () => {
  const run = (kept?: "endpoints") => {
    const two = [named(), named()];
    return finish(two, feed((k) => two[k % 2], ["a", "b"], 1000), kept).endpoints!;
  };
  assertEquals(run().map((e) => e.intervals.histograms), [undefined, undefined]);
  for (const e of run("endpoints")) {
    const kept = e.intervals.histograms!;
    assertEquals(kept.length, e.intervals.requests.length);
    assertEquals(kept.map((h) => h === null ? 0 : decodeHistogram(h).totalCount), e.intervals.requests);
    assertEquals(
      mergeEncoded(kept.filter((h) => h !== null)).totalCount,
      decodeHistogram(e.histogramEncoded!).totalCount,
    );
  }
});
