/**
 * Truth table, a profiled CPU-bound target: a rate sweep of the built-in target's CPU endpoint (`/fib/25`,
 * wrk2's model) from a rate it keeps up with to one far beyond its core, with `--profile`. Whatever the
 * shared machine's CPU wait ratios read, the knee's cause must cite the strongest evidence recorded: the
 * profile's top function, `fib`, with its share of the busy time — never "nothing saturated" nor a core
 * held "by other processes". A knee exists whatever the machine's load: the lowest rate is light enough to
 * keep up with, and the highest is tens of times the target's capacity.
 */
import assert from "node:assert/strict";
import { runExperiment } from "./experiment_run.ts";

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
    runExperiment(EXPERIMENT, ["--profile"], (stdout) => {
      const knee = stdout.split("\n").find((l) => l.includes("Above the knee of"));
      assert.ok(knee, stdout);
      assert.match(
        knee,
        /the profile's top function, fib \([^)]+:\d+\), took \d+% of the target process's busy/,
      );
      assert.doesNotMatch(knee, /nothing loadlab samples saturated|other processes/);
    }),
});
