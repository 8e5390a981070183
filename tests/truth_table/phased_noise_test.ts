/**
 * Truth table, the cache-burst spike: one run each of a fast and a slow built-in CMS page (a pool of 2
 * and 90 ms pages against 1 ms queries) under a load whose rate changes within the run (1/s, 50/s, 2/s
 * for a second each, one connection per arrival). The slow page queues in the spike, so the two p99s
 * end up many times apart; the run's own intervals differ by the load's phases, not by noise, so the
 * within-run rule cannot judge the change of a rate or a latency: the findings must say why, and never
 * "within noise" (success shares are judged by their requests, phases or not).
 */
import assert from "node:assert/strict";
import { runExperiment } from "./experiment_run.ts";

/** 53 arrivals over 3 s per variant, a 3 s timeout and as long to finish: bounded in time and load. */
const EXPERIMENT = `
name: phased-noise
targets:
  fast: { kind: builtin, cms: { queryMs: 1 } }
  slow: { kind: builtin, cms: { poolSize: 2, queryMs: 30, queries: 3 } }
requests: [/home]
loads:
  spike:
    model: rate
    phases:
      - { name: before, duration: 1s, rate: 1 }
      - { name: spike, duration: 1s, rate: 50 }
      - { name: after, duration: 1s, rate: 2 }
    connection: per-arrival
    timeout: 3s
    gracefulStop: 3s
warmup: 0s
baseline: slow
`;

Deno.test({
  name: "truth table: a p99 many times apart under a phased load is never 'within noise'",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    runExperiment(EXPERIMENT, [], (stdout, results) => {
      const line = stdout.split("\n").find((l) => l.includes("fast against slow:"));
      assert.ok(line, stdout);
      assert.match(line, /p99 -\d+\.\d%/);
      assert.match(line, /noise not judged: the load spike changes its rate within the run/);
      assert.doesNotMatch(stdout, /(req\/s|p50|p99) [+-]?[\d.]+% within noise/);
      const p99 = (v: string) => results.runs.find((r) => r.variant === v)!.latencyMs.p99;
      assert.ok(p99("slow") > 3 * p99("fast"), `slow p99 ${p99("slow")} ms, fast ${p99("fast")} ms`);
    }),
});
