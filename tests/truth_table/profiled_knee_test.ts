/**
 * Truth table, a profiled CPU-bound target: a rate sweep of the built-in target's CPU endpoint (`/fib/25`,
 * wrk2's model) from a rate it keeps up with to one far beyond its core, with `--profile`. Whatever the
 * shared machine's CPU wait ratios read, the knee's cause must cite the strongest evidence recorded: the
 * profile's top function, `fib`, with its share of the busy time — never "nothing saturated" nor a core
 * held "by other processes". A knee exists whatever the machine's load: the lowest rate is light enough to
 * keep up with, and the highest is tens of times the target's capacity. On a machine loaded past its cores
 * the generator may be the queue instead (its sends late above the knee, or its run generator-bound): the
 * finding may then say so, by the facts it prints, rather than name fib; never when the generator kept up.
 */
import assert from "node:assert/strict";
import { runExperiment } from "./experiment_run.ts";
import { GENERATOR_LATE_PCT } from "../../results/conclude/knee/explained.ts";

/** Three 1 s points (20/s, 40/s, 5,000/s) on 8 connections: bounded in time and load. */
const EXPERIMENT = `
name: profiled-knee
targets:
  app: { kind: builtin }
loads:
  fib: { model: throughput, rate: 20, connections: 8, duration: 1s, gracefulStop: 0s, requests: [/fib/25] }
sweeps:
  - { parameter: load.rate, values: [20, 40, 5000] }
warmup: 0s
`;

Deno.test({
  name: "truth table: a profiled CPU-bound knee is explained by the profile's top function",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    runExperiment(EXPERIMENT, ["--profile"], (stdout, results) => {
      const knee = stdout.split("\n").find((l) => l.includes("Above the knee of"));
      if (knee === undefined) {
        // Cores held by other processes can flag a light run generator-bound: then no knee is claimed, and
        // the findings say which run the generator limited.
        assert.ok(results.runs.some((r) => r.generatorBound) && /\(generator-bound\)/.test(stdout), stdout);
        return;
      }
      assert.doesNotMatch(knee, /nothing loadlab samples saturated|other processes/);
      const above = /\(load\.rate \d+ → (\d+)\)/.exec(knee);
      const run = results.runs.find((r) => r.targetRps === Number(above?.[1]));
      assert.ok(run, knee);
      // The generator's late sends below and above the knee, as the finding prints them.
      const late = /the generator sent ([\d.]+)% → ([\d.]+)% of its requests late/.exec(knee);
      const lateAbove = Number(late?.[2] ?? 0), lateBelow = Number(late?.[1] ?? 0);
      const fib = /the profile's top function, fib \([^)]+:\d+\), took \d+% of the target process's busy/;
      // With the generator behind, the target may have been held short of its core: the finding may name
      // either, each by the facts it prints; with the generator keeping up, only the profile explains it.
      const generator = run.generatorBound
        ? /generator-bound: the load generator, not the target, limited it/
        : lateAbove >= GENERATOR_LATE_PCT && lateAbove >= 2 * lateBelow
        ? /the generator fell behind \([\d.]+% of its requests late, [\d.]+% below the knee\)/
        : null;
      assert.ok(fib.test(knee) || (generator !== null && generator.test(knee)), knee);
    }),
});
