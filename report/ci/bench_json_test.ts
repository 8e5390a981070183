import assert from "node:assert/strict";
import { makeSeed000 } from "../../tests/fixtures/make_results.ts";
import { type BenchEntry, biggerBenchPath, renderBenchJson } from "./bench_json.ts";

Deno.test("bench JSON: latency smaller-is-better, req/s and success bigger-is-better, one entry per group", () => {
  const results = makeSeed000(3);
  const { smaller, bigger } = renderBenchJson(results);
  const low: BenchEntry[] = JSON.parse(smaller), high: BenchEntry[] = JSON.parse(bigger);
  const p99 = low.find((e) => e.name === "redis-cache/high p99")!;
  const runs = results.runs.filter((r) => r.name.startsWith("redis-cache/high#"));
  const mean = runs.reduce((a, r) => a + r.latencyMs.p99, 0) / runs.length;
  assert.equal(p99.unit, "ms");
  assert.ok(Math.abs(p99.value - mean) / mean < 1e-3, `${p99.value} vs ${mean}`);
  assert.match(p99.range!, /^± [\d.]+$/);
  assert.equal(p99.extra, "3 runs");
  assert.deepEqual(new Set(low.map((e) => e.unit)), new Set(["ms"]));
  assert.deepEqual(new Set(high.map((e) => e.unit)), new Set(["req/s", "%"]));
  assert.equal(low.filter((e) => e.name.startsWith("redis-cache/high ")).length, 2, "p50 and p99");
  // A sweep point runs once: no range, and a flagged run says so beside its number.
  const one = high.find((e) => e.name === "sweep/rate=10000 rps")!;
  assert.equal(one.range, undefined);
  assert.match(one.extra!, /^1 run\nflagged: /);
});

Deno.test("biggerBenchPath: the sibling file of the bigger-is-better half", () => {
  assert.equal(biggerBenchPath("out/bench.json"), "out/bench.bigger.json");
  assert.equal(biggerBenchPath("bench"), "bench.bigger.json");
});
