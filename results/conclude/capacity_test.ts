import assert from "node:assert/strict";
import { makeSingleAttack } from "../../tests/fixtures/make_results.ts";
import type { RunResult } from "../mod.ts";
import { capacityQualifiers, capacityText, type StoredSearch } from "./capacity.ts";
import { runVerdict } from "./run_verdict.ts";

/** A clean probe run of this name; `generatorBound` marks it as the runner marks one that sent late. */
function probe(name: string, generatorBound = false): RunResult {
  const run = { ...makeSingleAttack().runs[0], name, probe: true, generatorBound };
  return generatorBound ? { ...run, lateSends: run.requests } : run;
}

const search: StoredSearch = {
  parameter: "load.rate",
  target: "t",
  load: "l",
  slo: "p99 < 100ms",
  value: 65,
  low: { value: 65, run: "at65" },
  high: { value: 110, run: "at110" },
  confirmRun: "confirm65",
  probes: [{ value: 65, run: "at65", ok: true }, { value: 110, run: "at110", ok: false }, {
    value: 65,
    run: "confirm65",
    ok: true,
  }],
};

Deno.test("a capacity found on clean probes is the target's, with its bracket", () => {
  const runs = [probe("at65"), probe("at110"), probe("confirm65")];
  assert.equal(runVerdict(runs[0]).label, "ok");
  assert.deepEqual(capacityQualifiers(search, runs), []);
  assert.equal(
    capacityText(search, runs),
    "capacity of t/l: load.rate = 65 (fails at 110) under p99 < 100ms, 3 probes",
  );
});

Deno.test("a value resting on generator-bound probes is never called the target's capacity", () => {
  const runs = [probe("at65", true), probe("at110"), probe("confirm65", true)];
  const text = capacityText(search, runs);
  assert.match(text, /^capacity search of t\/l: load\.rate = 65 \(fails at 110; generator-bound/);
  assert.match(
    text,
    /at 65, the value found: loadlab's numbers, not the target's; the target's limit may be higher/,
  );
  assert.doesNotMatch(text, /capacity of t\/l/);
});

Deno.test("a generator-bound failing probe above says the target's limit may be higher", () => {
  const runs = [probe("at65"), probe("at110", true), probe("confirm65")];
  assert.deepEqual(capacityQualifiers(search, runs), [
    "generator-bound at 110, where the SLO failed: the failure may be loadlab's; the target's limit may be higher",
  ]);
  const none = { ...search, value: null, low: null, confirmRun: null, high: { value: 110, run: "at110" } };
  assert.match(
    capacityText(none, runs),
    /= not met even at the low end of the range \(generator-bound at 110/,
  );
});
