/**
 * Truth table, a rate sweep the target never kept up with: the built-in target's CPU endpoint (`/fib/25`,
 * a few hundred a second on one core) asked for 5,000 to 20,000 req/s in wrk2's model. With no rate
 * sustained there is no knee, and the reason must say the curve fell short from its lowest rate with the
 * numbers, never "kept up with every requested rate".
 */
import assert from "node:assert/strict";
import { runExperiment } from "./experiment_run.ts";

/** Three 1 s points on 8 connections: bounded in time, and the sends beyond them are dropped, not queued. */
const EXPERIMENT = `
name: rate-sweep-short
targets:
  app: { kind: builtin }
loads:
  fib: { model: throughput, rate: 5000, connections: 8, duration: 1s, gracefulStop: 0s, requests: [/fib/25] }
sweeps:
  - { parameter: load.rate, values: [5000, 10000, 20000] }
warmup: 0s
`;

Deno.test({
  name: "truth table: a rate sweep short from its lowest rate has no knee and never 'kept up'",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    runExperiment(EXPERIMENT, [], (_stdout, results) => {
      const [knee] = results.analysis!.knees;
      assert.equal(knee.value, null);
      assert.match(
        knee.reason,
        /^fell short from the lowest rate: achieved [\d.]+ of the requested 5000 req\/s/,
      );
      const lowest = results.runs.find((r) => r.sweep?.value === 5000)!;
      assert.ok(lowest.rps < 0.95 * 5000, `the lowest point achieved ${lowest.rps} req/s`);
    }),
});
