/**
 * Truth table, the same target twice (A/A): two built-in targets alike in every way, as two variants under
 * one closed load, with every expected direction stated both ways. Whatever the two runs' numbers came
 * to on a busy machine, their difference is null, so no direction may read "reproduced": each is within
 * noise, the other way round, or not judged with the test and its margin named.
 */
import assert from "node:assert/strict";
import { runExperiment } from "./experiment_run.ts";

const METRICS = ["rps", "p50", "p99", "mean", "success"];

/** 1.5 s of 20 connections on the static page for each variant: bounded in time and load. */
const EXPERIMENT = `
name: same-target
targets:
  a: { kind: builtin }
  b: { kind: builtin }
loads:
  closed: { model: connections, connections: 20, duration: 1500ms, requests: [/static/news.html] }
warmup: 500ms
baseline: a
expect:
${
  METRICS.map((m) => `  - { metric: ${m}, better: a, than: b }\n  - { metric: ${m}, better: b, than: a }`)
    .join("\n")
}
`;

Deno.test({
  name: "truth table: the same target twice never reproduces an expected direction, either way",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    runExperiment(EXPERIMENT, [], (stdout, results) => {
      const expect = stdout.split("\n").filter((l) => l.includes("Expected: "));
      assert.equal(expect.length, 2 * METRICS.length, stdout);
      for (const line of expect) {
        assert.doesNotMatch(line, /: reproduced here|reproduced at \d/);
        assert.match(line, /: (not reproduced here|not judged)/, line);
      }
      assert.deepEqual(results.runs.map((r) => r.variant), ["a", "b"]);
    }),
});
