/**
 * @module
 * The gate on a shared runner, over runs recorded there (tests/fixtures/gate_runs/trial6_*: `attack` of a
 * trial server on 4 connections, 6 s at --interval 500ms, load average 15 to 23): one stall in a run is set
 * aside as noise while a slower build with the same stall still fails, two stalls stay the target's; a 8
 * that cannot compare says what to record: this run's -d, three intervals' length, this run's command, or
 * repeats for an endpoint's latency. Pure: the verdicts come from saved files, so busy cores change nothing.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { gateAgainstBaseline } from "../results/baseline_gate.ts";
import { parseFailOn } from "../results/fail_on.ts";
import type { ResultsFile } from "../results/mod.ts";
import { loadResultsFile } from "../results/io.ts";
import { sideBatches } from "../results/conclude/noise_samples.ts";

const recorded = (name: string) =>
  loadResultsFile(new URL(`fixtures/gate_runs/trial6_${name}.json`, import.meta.url).pathname);
const gate = (run: ResultsFile, base: ResultsFile, ...rules: string[]) =>
  gateAgainstBaseline(base, run, rules.map(parseFailOn));
const reasons = (g: ReturnType<typeof gate>) => g.unjudged.map((u) => u.reason).join("\n");

Deno.test("one stall in a run is noise, set aside; a slower build with it still fails; two stalls stay", async () => {
  // stall1: /stall?ms=5 frozen 1.5 s from 2 s in; stallslow: the same at 10 ms; stallbase: never frozen.
  const [base, stall, slow] = await Promise.all(["stallbase", "stall1", "stallslow"].map(recorded));
  const p99 = sideBatches(stall.runs, "p99"), plain = sideBatches(base.runs, "p99");
  assertEquals([p99.stalls, plain.stalls], [1, 0]);
  assert(Math.max(...p99.values) < 10 * Math.min(...p99.values), `the stall batch is out: ${p99.values}`);
  assertEquals(gate(stall, base, "p99 +50%", "p50 +20%").failed, false, "the same build never exits 7");
  assertEquals(gate(slow, base, "p50 +20%").failed, true, "a stall hides no slower build");
  // The stall's intervals copied once more, a second later: two stalls in one run are the target's.
  const twice = structuredClone(stall), ivs = twice.runs[0].intervals;
  const at = (ms: number) => ivs.findIndex((iv) => iv.startMs === ms);
  for (const [from, to] of [[2000, 4000], [2500, 4500], [3000, 5000], [3500, 5500]]) {
    ivs[at(to)] = { ...ivs[at(from)], startMs: to };
  }
  assertEquals(sideBatches(twice.runs, "p99").stalls, 0);
});

Deno.test("a gate that cannot compare says what to record: the same -d, a long enough run, the same command", async () => {
  const [base, short, count, file] = await Promise.all(["base1", "short3", "n40", "run_file"].map(recorded));
  assert(
    reasons(gate(short, base, "p99 +50%")).includes(
      "durationMs 6000 → 3000); record the baseline " +
        "with this run's load (-d 3s)",
    ),
  );
  assert(
    reasons(gate(count, count, "p99 +50%")).includes(
      "runs too short for three batches (1 and 1): a " +
        "run needs 3 intervals, 1.5s or more after its warm-up at --interval 500ms (-d 1.5s, or a larger -n)",
    ),
  );
  assert(
    reasons(gate(file, base, "p99 +50%")).includes(
      "nothing paired: no run of this file (t/l) has a " +
        "run of its name in the baseline (attack); record the baseline with this run's command",
    ),
  );
});

Deno.test("an endpoint's latency with one run a side asks for repeats, not for a longer run", async () => {
  const [base, slow] = await Promise.all(["mixbase", "mixslow"].map(recorded));
  const g = gate(slow, base, "p99{name:GET /b} +50%");
  assertEquals(g.failed, false);
  assert(
    reasons(g).includes(
      "its intervals hold no latency (an endpoint's is kept for the whole run): " +
        "repeats on both sides (repeats: 3)",
    ),
    reasons(g),
  );
});

Deno.test("an endpoint's rule is never judged at the whole run's floor", async () => {
  // trial7_mix9*: `--mix "GET /a?ms=5 1" --mix "GET /b?ms=5 9"`, /b three times slower in mix9slowb only.
  const [base, slow] = await Promise.all(
    ["mix9base", "mix9slowb"].map((name) =>
      loadResultsFile(new URL(`fixtures/gate_runs/trial7_${name}.json`, import.meta.url).pathname)
    ),
  );
  // The whole run's p10 rose with /b's answers, /a's did not: its rule neither fails nor reads that floor.
  const g = gate(slow, base, "p50{name:GET /a} +50%", "p99{name:GET /a} +50%");
  assertEquals(g.failed, false);
  assert(!reasons(g).includes("at the floor"), reasons(g));
  assert(reasons(g).includes("its intervals hold no latency"), reasons(g));
});
