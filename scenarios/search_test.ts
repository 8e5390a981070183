import assert from "node:assert/strict";
import type { RunResult } from "../results/mod.ts";
import { ConfigError } from "../validation/config_error.ts";
import { makeRun } from "../tests/fixtures/make_run.ts";
import { meetsSlo, parseSlo, searchCapacity, type SearchSpec, sloP99Ms } from "./run/run_plan.ts";

const TEMPLATE = makeRun({ name: "probe", rps: 100, durationSec: 2, dist: { medianMs: 5, sigma: 0.5 } });

/** A probe of a target of known capacity: above it p99 explodes (queueing), below it p99 is 20 ms. */
function target(capacity: number, opts: { flakyAt?: number } = {}) {
  const calls: number[] = [];
  const probe = (value: number): Promise<RunResult> => {
    calls.push(value);
    const failsOnce = opts.flakyAt === value && calls.filter((v) => v === value).length === 2;
    const ok = value <= capacity && !failsOnce;
    return Promise.resolve({
      ...TEMPLATE,
      name: `probe=${value}#${calls.length - 1}`,
      probe: true,
      latencyMs: { ...TEMPLATE.latencyMs, p99: ok ? 20 : 900 },
      successRate: ok ? 1 : 0.97,
    });
  };
  return { probe, calls };
}

const PLAN: SearchSpec = {
  parameter: "load.rate",
  target: "direct",
  load: "steady",
  range: [100, 20000],
  slo: "p99 < 100ms and success >= 99.9%",
  precision: 0.05,
  maxProbes: 12,
};

Deno.test("parseSlo reads `and`-joined thresholds and names a bad part", () => {
  const slo = parseSlo("p99 < 100ms and success >= 99.9%");
  assert.deepEqual(slo.map((t) => [t.metric, t.op]), [["p99", "<"], ["success", ">="]]);
  assert.ok(Math.abs(slo[1].value - 0.999) < 1e-12);
  assert.equal(sloP99Ms(slo), 100);
  assert.equal(sloP99Ms(parseSlo("success > 99%")), undefined);
  assert.throws(() => parseSlo("p99 < 100ms and"), ConfigError);
  assert.throws(() => parseSlo(" "), ConfigError);
  assert.throws(() => parseSlo("p99 < lots"), ConfigError);
  assert.throws(() => parseSlo("direct/steady: p99 < 100ms"), /names a run/);
});

Deno.test("meetsSlo: every part must hold, and a probe without responses never meets it", () => {
  const slo = parseSlo("p99 < 100ms");
  assert.equal(meetsSlo(slo, TEMPLATE), true);
  assert.equal(meetsSlo(slo, { ...TEMPLATE, requests: 0 }), false);
  assert.equal(meetsSlo(slo, { ...TEMPLATE, incomplete: true }), false);
});

Deno.test("searchCapacity brackets a known capacity within the precision, then confirms it", async () => {
  const { probe, calls } = target(4321);
  const r = await searchCapacity(PLAN, probe);
  assert.ok(r.value !== null && r.value <= 4321, String(r.value));
  assert.ok(r.high !== null && r.high.value > 4321);
  assert.ok(r.high.value - r.value <= 0.05 * r.value, `${r.value}..${r.high.value}`);
  assert.deepEqual(calls.slice(0, 3), [100, 20000, 10050]);
  // 19900 halves 7 times to within 5% of ~4300; plus both ends and the confirming run.
  assert.equal(calls.length, 2 + 7 + 1);
  assert.equal(calls.at(-1), r.value);
  assert.equal(r.confirmRun, `probe=${r.value}#9`);
  assert.deepEqual(r.low, { value: r.value, run: r.probes.find((p) => p.value === r.value)!.run });
  assert.deepEqual(r.probes.map((p) => p.ok), calls.map((v) => v <= 4321));
  assert.deepEqual([r.parameter, r.target, r.load, r.slo], ["load.rate", "direct", "steady", PLAN.slo]);
});

Deno.test("searchCapacity stops at maxProbes (ends included) and still confirms", async () => {
  const { probe, calls } = target(4321);
  const r = await searchCapacity({ ...PLAN, maxProbes: 5 }, probe);
  assert.equal(calls.length, 5 + 1);
  assert.ok(r.value !== null && r.value <= 4321 && r.high!.value > 4321);
});

Deno.test("searchCapacity: failing at the low end gives no value after one probe", async () => {
  const { probe, calls } = target(50);
  const r = await searchCapacity(PLAN, probe);
  assert.deepEqual(calls, [100]);
  assert.equal(r.value, null);
  assert.equal(r.low, null);
  assert.deepEqual(r.high, { value: 100, run: "probe=100#0" });
  assert.equal(r.confirmRun, null);
});

Deno.test("searchCapacity: passing at the high end gives the high end, confirmed", async () => {
  const { probe, calls } = target(1e9);
  const r = await searchCapacity(PLAN, probe);
  assert.deepEqual(calls, [100, 20000, 20000]);
  assert.equal(r.value, 20000);
  assert.equal(r.high, null);
  assert.deepEqual(r.low, { value: 20000, run: "probe=20000#1" });
  assert.equal(r.confirmRun, "probe=20000#2");
});

Deno.test("searchCapacity: a confirm that fails falls back to the highest value below that passed", async () => {
  const exact = await searchCapacity(PLAN, target(4321).probe);
  const { probe, calls } = target(4321, { flakyAt: exact.value! });
  const r = await searchCapacity(PLAN, probe);
  assert.equal(calls.length, 10);
  const passedBelow = r.probes.filter((p) => p.ok && p.value < exact.value!).map((p) => p.value);
  assert.equal(r.value, Math.max(...passedBelow));
  assert.deepEqual(r.high, { value: exact.value, run: r.confirmRun });
  assert.equal(r.probes.at(-1)!.ok, false);
});
