/**
 * Truth table, a 1-instance "cluster": the cpu-sleep study's expectation that a cluster serves more than a
 * single instance depends on the cluster running more instances, each on a core of its own. A real run of
 * two built-in targets that both run one instance (the cluster's `instances: 1`, what `auto` gives on a
 * 2-core machine) must never print that direction as "reproduced here": it is "not judged", naming the
 * instances each ran, however the two runs' req/s happen to differ.
 */
import assert from "node:assert/strict";
import { runExperiment } from "./experiment_run.ts";

/** Two one-instance targets, 1 s of 10 connections on /sleep?ms=5 each: bounded in time and load. */
const EXPERIMENT = `
name: one-instance-cluster
targets:
  single: { kind: builtin }
  cluster: { kind: builtin, instances: 1 }
loads:
  sleep: { model: connections, connections: 10, duration: 1s, requests: ["/sleep?ms=5"] }
warmup: 0s
baseline: single
expect:
  - { metric: rps, better: cluster, than: single, load: sleep, needs: instances }
`;

Deno.test({
  name: "truth table: a 1-instance cluster's 'more req/s than single' is not judged, never reproduced",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    runExperiment(EXPERIMENT, [], (stdout, results) => {
      const expect = stdout.split("\n").find((l) => l.includes("Expected: cluster's req/s"));
      assert.ok(expect, stdout);
      assert.match(expect, /: not judged: cluster ran 1 instance and single 1: the direction needs more/);
      assert.doesNotMatch(stdout, /: reproduced here|reproduced at \d/);
      assert.deepEqual(results.runs.map((r) => r.targetInfo?.instances ?? 1), [1, 1]);
    }),
});
