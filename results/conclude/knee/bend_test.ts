import assert from "node:assert/strict";
import { makeRun } from "../../../tests/fixtures/make_run.ts";
import type { RunResult } from "../../mod.ts";
import { analyze } from "../analysis.ts";

/**
 * One 1 s point of a rate sweep (four 250 ms intervals, as cpu-sleep's quick static points) that achieved
 * `rps` of its requested `rate`, its intervals' p99 (ms) as given and the run's their request-weighted mean.
 */
function ratePoint(rate: number, rps: number, p99s: number[]): RunResult {
  const run = makeRun({
    name: `single/static/load.rate=${rate}`,
    variant: "single",
    load: "static",
    sweep: { parameter: "load.rate", value: rate },
    model: "throughput",
    rps,
    targetRps: rate,
    dist: { medianMs: 0.2, sigma: 0.3 },
    durationSec: 1,
    telemetry: null,
  });
  const intervals = run.intervals.map((iv, i) => ({ ...iv, p99: p99s[i % p99s.length] }));
  const p99 = p99s.reduce((a, b) => a + b, 0) / p99s.length;
  return { ...run, rps, intervals, latencyMs: { ...run.latencyMs, p99 }, generatorBound: false };
}

const kneeOf = (runs: RunResult[]) => analyze(runs).knees.find((k) => k.parameter === "load.rate")!;

Deno.test("a rate sweep's knee is named only where the latency bends beyond noise", () => {
  // 20,000/s served in full, its p99 six times the lowest rate's in every interval: a bend beyond noise.
  const steady = kneeOf([
    ratePoint(5000, 5000, [0.35, 0.4, 0.37, 0.36]),
    ratePoint(20000, 20000, [2.3, 2.4, 2.2, 2.4]),
    ratePoint(80000, 30000, [40, 45, 42, 44]),
  ]);
  assert.equal(steady.value, 5000);
  assert.match(steady.reason, /^p99 2\.3\d* ms, over 3x the lowest rate's beyond noise, at 20000$/);
  // The same mean p99, one stalled interval among four at the lowest rate's level: within what a shared
  // machine's stall does, so 20,000/s counts as kept up, and the knee is where the rate fell short.
  const stalled = kneeOf([
    ratePoint(5000, 5000, [0.35, 0.4, 0.37, 0.36]),
    ratePoint(20000, 20000, [0.4, 0.38, 8.6, 0.36]),
    ratePoint(80000, 30000, [40, 45, 42, 44]),
  ]);
  assert.equal(stalled.value, 20000);
  assert.match(stalled.reason, /^achieved 30000 req\/s, below 95% of the requested 80000, at 80000$/);
  // No point bent beyond noise: no knee, and the bend that was not one is named.
  const none = kneeOf([
    ratePoint(5000, 5000, [0.35, 0.4, 0.37, 0.36]),
    ratePoint(20000, 20000, [0.4, 0.38, 8.6, 0.36]),
    ratePoint(80000, 80000, [0.4, 0.38, 0.37, 9.1]),
  ]);
  assert.equal(none.value, null);
  assert.match(
    none.reason,
    /^kept up with every requested rate \(the bend at 20000 is within what noise can do\)$/,
  );
});

Deno.test("a shortfall of the rate is a bend only beyond noise", () => {
  // 80,000/s achieved at 70,000 on average, its 250 ms batches anywhere from 45,000 to 95,000.
  const runs = [
    ratePoint(5000, 5000, [0.35, 0.4, 0.37, 0.36]),
    ratePoint(20000, 20000, [0.4, 0.38, 0.37, 0.36]),
    ratePoint(80000, 70000, [0.4, 0.38, 0.37, 0.36]),
  ];
  const scatter = [45000, 95000, 50000, 90000];
  runs[2].intervals = runs[2].intervals.map((iv, i) => ({ ...iv, requests: scatter[i] / 4 }));
  const k = kneeOf(runs);
  assert.equal(k.value, null);
  assert.match(k.reason, /fell short at 80000: .*\(the bend at 80000 is within what noise can do\)$/);
});

Deno.test("a 1 s point that never settled is judged on its whole run: 192 of 5,000 req/s is a bend", () => {
  // The final half of four intervals is two: too few for a spread, so the whole run's four are weighed.
  const runs = [
    ratePoint(20, 20, [35, 68, 12, 8]),
    ratePoint(40, 40, [29, 17, 14, 9]),
    ratePoint(5000, 192, [237, 465, 719, 971]),
  ].map((r) => ({ ...r, stabilizedAtMs: null }));
  runs[2].intervals = runs[2].intervals.map((iv, i) => ({ ...iv, requests: [48, 44, 45, 55][i] }));
  const k = kneeOf(runs);
  assert.equal(k.value, 40);
  assert.match(k.reason, /^achieved 192 req\/s, below 95% of the requested 5000, at 5000$/);
});
