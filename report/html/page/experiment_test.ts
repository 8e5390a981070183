import assert from "node:assert/strict";
import { makeExperimentResults } from "../../../tests/fixtures/make_experiment_results.ts";
import { makeSeed000 } from "../../../tests/fixtures/make_results.ts";
import { buildPageData } from "./data.ts";
import { describeNoiseRule } from "./experiment.ts";

Deno.test("the page prefers the stored analysis: verdicts on overview changes, the noise rule named", () => {
  const results = makeExperimentResults();
  const data = buildPageData(results);
  assert.equal(data.analysis?.noiseRule, "repeats");
  assert.equal(data.analysis?.noiseText, describeNoiseRule(results.analysis!));
  const row = data.overview.find((r) => r.label === "redis-cache / burst")!;
  assert.equal(row.beyondNoise?.p50, true);
  const stored = results.analysis!.comparisons.find((c) =>
    c.group === "redis-cache/burst" && c.metric === "p50"
  )!;
  assert.equal(row.changePct?.p50, stored.changePct);
  // Without a stored analysis the page computes changes itself and gives no verdict.
  const plain = buildPageData(makeSeed000(2, 6)).overview.find((r) => r.label === "redis-cache / burst")!;
  assert.equal(plain.beyondNoise, null);
  assert.ok((plain.changePct?.p50 ?? 0) < -90);
});

Deno.test("probe runs stay out of the overview and the sweeps; the search carries them", () => {
  const data = buildPageData(makeExperimentResults());
  assert.ok(data.overview.every((r) => !r.runs.some((n) => n.includes("search:"))));
  assert.deepEqual(data.sweeps, []);
  assert.equal(data.analysis?.searches[0].probes.length, 7);
  assert.ok(data.runs.some((r) => r.name.includes("search:")), "probes can still be opened");
});

Deno.test("phases, flows and target information reach the page, and phases are compared across variants", () => {
  const data = buildPageData(makeExperimentResults());
  const run = data.runs.find((r) => r.name === "redis-cache/burst#0")!;
  assert.equal(run.phases?.length, 3);
  assert.equal(run.flows?.[0].steps.length, 2);
  assert.equal(run.targetInfo?.runtime, "deno 2.9.6");
  assert.equal(run.targetStats?.staleHits, 3);
  const [phases] = data.phaseComparisons;
  assert.equal(data.phaseComparisons.length, 4); // one per load
  assert.deepEqual(phases.series.map((s) => s.name), ["no-cache", "redis-cache"]);
  assert.equal(phases.labels.length, 3);
  assert.ok(phases.series[0].mean[0]! > phases.series[1].mean[0]!, "uncached is slower");
});

Deno.test("the stored knee and its reason are drawn; without one, the findings' rule finds it", () => {
  const results = makeSeed000(1, 5);
  results.analysis = {
    noiseRule: "within-run",
    groups: [],
    comparisons: [],
    knees: [{
      variant: "node-single",
      load: null,
      parameter: "rate",
      value: 4000,
      reason: "p99 over the SLO",
    }],
    searches: [],
  };
  const [sweep] = buildPageData(results).sweeps;
  assert.equal(sweep.points[sweep.knee!].x, 4000);
  assert.equal(sweep.kneeReason, "p99 over the SLO");
  // Without one, the analysis's rule: the fixture bends above 5000 only where its generator was the limit.
  const [own] = buildPageData(makeSeed000(1, 5)).sweeps;
  assert.equal(own.knee, null);
  assert.match(own.kneeReason!, /6000, 8000, 10000 not judged: generator-bound/);
});

Deno.test("a one-phase load gets no per-phase bars: its bars are the across-loads charts", () => {
  const results = makeExperimentResults();
  const high = results.runs.filter((r) => r.load === "high");
  for (const run of high) run.phases = run.phases?.slice(0, 1);
  const data = buildPageData(results);
  assert.equal(data.phaseComparisons.length, 3);
  assert.ok(data.phaseComparisons.every((c) => c.load !== "high"));
});
