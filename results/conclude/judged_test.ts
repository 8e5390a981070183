import assert from "node:assert/strict";
import { makeSweepMatrix } from "../../tests/fixtures/make_results.ts";
import { makeRun } from "../../tests/fixtures/make_run.ts";
import type { RunResult } from "../mod.ts";
import { analyze } from "./analysis.ts";
import { buildFindings } from "./findings.ts";
import { notJudgedFlags } from "./judged.ts";

/** `repeats` runs of `variant` at load steady serving `rps` (the connections model: no requested rate). */
function side(variant: string, rps: number, repeats: number, extra: Partial<RunResult> = {}): RunResult[] {
  return Array.from({ length: repeats }, (_, i) => {
    const run = makeRun({
      name: `${variant}/steady#${i + 1}`,
      variant,
      load: "steady",
      repeat: i + 1,
      model: "connections",
      rps,
      dist: { medianMs: 5, sigma: 0.2 },
      durationSec: 10,
      seed: i + 1,
    });
    return { ...run, generatorBound: false, ...extra };
  });
}

Deno.test("the rule: loadlab's limits never judged; dropped or lost only when the server was the limit", () => {
  const [run] = side("a", 100, 1);
  assert.deepEqual(notJudgedFlags([run]), []);
  assert.deepEqual(notJudgedFlags([{ ...run, generatorBound: true }]), ["generator-bound"]);
  assert.deepEqual(notJudgedFlags([{ ...run, warmupNotReached: true }]), ["warm-up not reached"]);
  assert.deepEqual(notJudgedFlags([{ ...run, incomplete: true }]), ["incomplete"]);
  const dropped = { ...run, droppedSends: 500 };
  assert.match(notJudgedFlags([dropped]).join(), /^dropped /);
  assert.deepEqual(notJudgedFlags([{ ...dropped, serverBound: true }]), []);
  // A server-bound point is the target's own limit: the knee of a rate sweep is made of them.
  assert.deepEqual(notJudgedFlags([{ ...run, serverBound: true }]), []);
});

Deno.test("a change against a generator-bound side is not called beyond noise: it is loadlab's", () => {
  const runs = [...side("base", 1000, 3), ...side("new", 500, 3, { generatorBound: true })];
  const analysis = analyze(runs, { baseline: "base" });
  const rps = analysis.comparisons.find((c) => c.metric === "rps")!;
  assert.equal(rps.beyondNoise, false);
  assert.equal(rps.noiseUnknown, true);
  assert.match(rps.noiseNotJudged!, /new is generator-bound/);
  const results = makeSweepMatrix();
  results.runs = runs;
  results.analysis = analysis;
  results.experiment = { ...results.experiment, baseline: "base" };
  const load = buildFindings(results).find((f) => f.kind === "load")!;
  assert.doesNotMatch(load.text, /beyond noise/);
  assert.match(load.text, /req\/s -50\.\d%.*\(noise not judged: new is generator-bound\)/);
  // Both sides clean, the same halving is beyond noise.
  const clean = analyze([...side("base", 1000, 3), ...side("new", 500, 3)], { baseline: "base" });
  assert.equal(clean.comparisons.find((c) => c.metric === "rps")!.beyondNoise, true);
});
