import assert from "node:assert/strict";
import { makeSweepMatrix } from "../../../tests/fixtures/make_results.ts";
import { makeRun } from "../../../tests/fixtures/make_run.ts";
import type { ResultsFile, RunResult } from "../../mod.ts";
import { analyze, kneeOf } from "../analysis.ts";
import { explainKnees } from "./explained.ts";
import { buildFindings } from "../findings.ts";

/**
 * A point of a rate sweep of direct / steady that achieved `rps` of its requested `rate`, with the
 * target's CPU and run-queue wait in every telemetry sample; `extra` flags it.
 */
function ratePoint(
  rate: number,
  rps: number,
  cpu: { cpuPercent: number; runQueueWaitPct?: number },
  extra: Partial<RunResult> = {},
): RunResult {
  const run = makeRun({
    name: `direct/steady/load.rate=${rate}`,
    variant: "direct",
    load: "steady",
    sweep: { parameter: "load.rate", value: rate },
    rps,
    targetRps: rate,
    dist: { medianMs: 2, sigma: 0.3 },
    durationSec: 2,
    telemetry: null,
  });
  run.rps = rps;
  run.generatorBound = false;
  run.telemetry = [{
    name: "target",
    kind: "process",
    samples: [0, 250, 500, 750].map((tMs) => ({ tMs, ...cpu })),
  }];
  return { ...run, ...extra };
}

function resultsOf(runs: RunResult[]): ResultsFile {
  const results = makeSweepMatrix();
  results.runs = runs;
  results.analysis = analyze(runs);
  return results;
}

const knee = (r: ResultsFile) => r.analysis!.knees.find((k) => k.parameter === "load.rate")!;

Deno.test("a generator-bound point's bend is not explained as the target's: it is named as not judged", () => {
  // At 400 loadlab's generator fell behind on a busy machine: served short, the target waiting for a core.
  // The target itself kept up at 800 and only bent at 1600, with its core full.
  const results = resultsOf([
    ratePoint(100, 100, { cpuPercent: 10 }),
    ratePoint(200, 200, { cpuPercent: 20 }),
    ratePoint(400, 250, { cpuPercent: 25, runQueueWaitPct: 60 }, { generatorBound: true, lateSends: 300 }),
    ratePoint(800, 800, { cpuPercent: 70 }),
    ratePoint(1600, 900, { cpuPercent: 99 }, { serverBound: true, serverBoundSends: 500 }),
  ]);
  assert.equal(knee(results).value, 800);
  assert.match(knee(results).reason, /400 not judged: generator-bound/);
  const explained = explainKnees(results);
  assert.equal(explained.length, 1);
  assert.deepEqual([explained[0].below.x, explained[0].above.x, explained[0].resource], [800, 1600, "CPU"]);
  const findings = buildFindings(results).map((f) => f.text).join("\n");
  assert.doesNotMatch(findings, /CPU-starved/);
});

Deno.test("a sweep bent only where loadlab's generator was the limit claims no knee and says why", () => {
  const results = resultsOf([
    ratePoint(100, 100, { cpuPercent: 10 }),
    ratePoint(200, 200, { cpuPercent: 20 }),
    ratePoint(400, 250, { cpuPercent: 25, runQueueWaitPct: 60 }, { generatorBound: true, lateSends: 300 }),
    ratePoint(800, 300, { cpuPercent: 25, runQueueWaitPct: 70 }, { generatorBound: true, lateSends: 700 }),
  ]);
  assert.equal(knee(results).value, null);
  assert.match(knee(results).reason, /400, 800 not judged: generator-bound/);
  assert.deepEqual(explainKnees(results), []);
});

Deno.test("a stored knee whose point above was flagged is not explained (results analyzed before the rule)", () => {
  const results = resultsOf([
    ratePoint(100, 100, { cpuPercent: 10 }),
    ratePoint(200, 200, { cpuPercent: 20 }),
    ratePoint(400, 250, { cpuPercent: 25, runQueueWaitPct: 60 }, { generatorBound: true, lateSends: 300 }),
  ]);
  results.analysis!.knees = [{
    variant: "direct",
    load: "steady",
    parameter: "load.rate",
    value: 200,
    reason: "r",
  }];
  assert.deepEqual(explainKnees(results), []);
});

const closedPoints = (rps: number[]) =>
  rps.map((r, i) => ({ x: [1, 2, 4, 8, 16][i], rps: r, p99Ms: 5, targetRps: null }));

Deno.test("a concurrency sweep flat within noise, or still rising after a dip, claims no knee", () => {
  // req/s within 5% of each other at every point: the biggest "bend" is the noise.
  const flat = kneeOf("load.connections", closedPoints([1000, 1030, 980, 1010, 1000]));
  assert.equal(flat.value, null);
  assert.match(flat.reason, /^no knee: req\/s stayed within 5% across the sweep/);
  // A dip at 4 from noise, then req/s doubling twice: the curve never levelled off.
  const dip = kneeOf("load.connections", closedPoints([100, 200, 150, 400, 800]));
  assert.equal(dip.value, null);
  // A curve that levels off has its knee where it bends, and a falling one (more CPU per request) too.
  assert.equal(kneeOf("load.connections", closedPoints([100, 200, 390, 420, 430])).value, 4);
});

Deno.test("a sweep of one or two points is too short for a knee, and says so", () => {
  for (const n of [1, 2]) {
    const short = kneeOf("load.connections", closedPoints([100, 200].slice(0, n)));
    assert.equal(short.value, null);
    assert.equal(short.reason, `no knee: ${n} point${n === 1 ? "" : "s"} swept, a bend needs 3`);
  }
});

Deno.test("a sweep whose every point is flagged claims no knee, explains none, and says why", () => {
  const late = { generatorBound: true, lateSends: 300 };
  const results = resultsOf(
    [100, 200, 400].map((rate) => ratePoint(rate, rate / 2, { cpuPercent: 30 }, late)),
  );
  assert.equal(knee(results).value, null);
  assert.equal(
    knee(results).reason,
    "no knee: every point was flagged (100, 200, 400 not judged: generator-bound)",
  );
  const findings = buildFindings(results);
  assert.ok(!findings.some((f) => f.kind === "knee"));
  assert.ok(findings.some((f) => f.kind === "flagged" && /3 of 3 runs flagged/.test(f.text)));
});

Deno.test("an open-rate sweep: sends dropped with the server as the limit are its knee; without, not judged", () => {
  const points = (dropped: Partial<RunResult>) => [
    ratePoint(100, 100, { cpuPercent: 20 }),
    ratePoint(200, 200, { cpuPercent: 40 }),
    ratePoint(400, 300, { cpuPercent: 99 }, { droppedSends: 100, ...dropped }),
  ];
  const server = resultsOf(points({ serverBound: true, serverBoundSends: 100 }));
  assert.equal(knee(server).value, 200);
  assert.match(knee(server).reason, /^achieved 300 req\/s, below 95% of the requested 400, at 400/);
  assert.equal(explainKnees(server)[0].resource, "CPU");
  const unknown = resultsOf(points({}));
  assert.equal(knee(unknown).value, null);
  assert.match(
    knee(unknown).reason,
    /^kept up with every requested rate among the points judged \(400 not judged: dropped /,
  );
});

const ratePoints = (rps: number[]) =>
  rps.map((r, i) => ({ x: (i + 1) * 100, rps: r, p99Ms: 5, targetRps: (i + 1) * 100 }));

Deno.test("a rate sweep that fell short once from noise and kept up above it has no knee at the dip", () => {
  // 94% at 300 (a stall of the shared machine), then 400 and 500 served in full: the target sustains 500.
  const recovered = kneeOf("load.rate", ratePoints([100, 200, 282, 400, 500]));
  assert.equal(recovered.value, null);
  assert.match(
    recovered.reason,
    /^kept up again at 500 after falling short at 300: achieved 282 of the requested 300/,
  );
  // A dip below a lasting shortfall: the knee is the last rate kept up before it.
  const dipped = kneeOf("load.rate", ratePoints([100, 188, 300, 320, 330]));
  assert.equal(dipped.value, 300);
  assert.match(dipped.reason, /achieved 320 req\/s, below 95% of the requested 400, at 400/);
});

Deno.test("an SLO still places the knee of a flat or short sweep: p99 over it is no bend to find", () => {
  const flat = closedPoints([1000, 1010, 1000, 990, 1000]).map((p, i) => ({
    ...p,
    p99Ms: [5, 6, 9, 40, 90][i],
  }));
  const slo = kneeOf("load.connections", flat, 20);
  assert.equal(slo.value, 4);
  assert.match(slo.reason, /over the SLO's 20 ms, at 8/);
  const two = closedPoints([100, 110]).map((p, i) => ({ ...p, p99Ms: [5, 50][i] }));
  assert.equal(kneeOf("load.connections", two, 20).value, 1);
});
