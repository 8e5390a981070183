import assert from "node:assert/strict";
import { makeRun } from "../../../tests/fixtures/make_run.ts";
import type { RunResult } from "../../../results/mod.ts";
import { connectionsOf, littleCells, littlesLawCurves } from "./littles_law.ts";
import { fitLine } from "../../../results/stats.ts";

/** A closed-model run at `n` connections with throughput `rps` and the mean latency Little's law gives. */
function closedRun(variant: string, n: number, rps: number, extra: Partial<RunResult> = {}): RunResult {
  const run = makeRun({
    name: `${variant}/closed/load.connections=${n}`,
    variant,
    load: "closed",
    sweep: { parameter: "load.connections", value: n },
    model: "connections",
    rps,
    dist: { medianMs: 1, sigma: 0.3 },
    durationSec: 2,
  });
  return { ...run, rps, latencyMs: { ...run.latencyMs, mean: (n / rps) * 1000 }, ...extra };
}

Deno.test("fitLine: exact on a line, r² 1; NaN slope when x does not vary", () => {
  const fit = fitLine([10, 200, 1000], [2.5, 50, 250]);
  assert.ok(
    Math.abs(fit.slope - 0.25) < 1e-12 && Math.abs(fit.intercept) < 1e-9 && Math.abs(fit.r2 - 1) < 1e-12,
  );
  assert.ok(Number.isNaN(fitLine([5, 5, 5], [1, 2, 3]).slope));
});

Deno.test("flat throughput: the fitted slope is Little's 1000 / X, one curve per variant", () => {
  const runs = [
    ...[10, 200, 1000].map((n) => closedRun("uncached", n, 4000)),
    ...[10, 200, 1000].map((n) => closedRun("cached", n, 8000)),
    closedRun("cached", 200, 8000, { name: "cached/closed/load.connections=200#2", repeat: 1 }),
  ];
  const curves = littlesLawCurves(runs);
  assert.deepEqual(curves.map((c) => c.label), ["uncached / closed", "cached / closed"]);
  const [uncached, cached] = curves;
  assert.ok(Math.abs(uncached.littleSlopeMs - 0.25) < 1e-12);
  assert.ok(Math.abs(uncached.fitSlopeMs / uncached.littleSlopeMs - 1) < 1e-9);
  assert.deepEqual(cached.points.map((p) => p.connections), [10, 200, 1000]);
  assert.equal(cached.points[1].runs.length, 2, "repeats share a point");
  assert.equal(littleCells(uncached)[7].text, "1");
  assert.ok(Math.abs(uncached.pointRatio[0] - 1) < 1e-9 && Math.abs(uncached.pointRatio[1] - 1) < 1e-9);
  assert.equal(littleCells(uncached)[9].text, "1–1");
});

Deno.test("throughput growing with N gives a fitted slope below Little's line at the mean throughput", () => {
  const curve = littlesLawCurves([10, 100, 1000].map((n) => closedRun("scales", n, n * 10)))[0];
  assert.ok(curve.fitSlopeMs < curve.littleSlopeMs / 10, "latency flat while X grows: slope near 0");
  assert.equal(curve.minRps, 100);
  assert.equal(curve.maxRps, 10_000);
});

Deno.test("only closed-model runs at three or more connection counts; probes and stopped runs left out", () => {
  const open = { ...closedRun("o", 10, 100), model: "rate" as const };
  assert.equal(connectionsOf(open), null);
  assert.equal(
    connectionsOf({ ...closedRun("c", 10, 100), sweep: undefined, config: { connections: 64 } }),
    64,
  );
  const two = [10, 200].map((n) => closedRun("two", n, 100));
  const probes = [10, 20, 30].map((n) => closedRun("p", n, 100, { probe: true }));
  const stopped = [
    closedRun("s", 10, 100),
    closedRun("s", 20, 100),
    closedRun("s", 30, 100, { incomplete: true }),
  ];
  assert.deepEqual(littlesLawCurves([open, ...two, ...probes, ...stopped]), []);
});
