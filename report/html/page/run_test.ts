import assert from "node:assert/strict";
import { makeRun } from "../../../tests/fixtures/make_run.ts";
import { pageRun } from "./run.ts";
import { SUM_MARK } from "../../../results/schema/keys.ts";

/** A run with one Redis and one runtime series of three samples, 250 ms apart. */
function runWithTelemetry() {
  const run = makeRun({
    name: "r",
    rps: 10,
    dist: { medianMs: 1, sigma: 0.2 },
    durationSec: 1,
    telemetry: null,
  });
  run.telemetry = [
    {
      name: "redis",
      kind: "redis",
      samples: [0, 250, 500].map((tMs, i) => ({
        tMs,
        hits: 30,
        misses: 10 * i,
        evictedKeys: i,
        usedMemoryBytes: 2 * 1048576,
        connectedClients: 3,
        slowlogAdded: 0,
      })),
    },
    {
      name: "target",
      kind: "runtime",
      runtime: "node",
      error: "EACCES",
      samples: [0, 250, 500].map((tMs, i) => ({
        tMs,
        loopP50Ms: 1,
        loopP99Ms: 10 * (i + 1),
        loopMaxMs: 40,
        heapUsedBytes: 1048576,
        gc: { minor: { count: 2, ms: 5 }, major: { count: 1, ms: 20 } },
      })),
    },
  ];
  return run;
}

Deno.test("pageRun: Redis hit ratio from the server's per-interval counts, evictions per second, memory", () => {
  const [redis] = pageRun(runWithTelemetry(), "g").telemetry;
  assert.deepEqual(redis.hitRatioPct, [100, 75, 60]);
  assert.deepEqual(redis.hitsPerSec, [null, 120, 120], "hits are per-interval counts, not totals");
  assert.deepEqual(redis.evictedPerSec, [null, 4, 8]);
  assert.deepEqual(redis.usedMemoryMiB, [2, 2, 2]);
  assert.deepEqual(redis.slowlogAdded, [0, 0, 0]);
});

Deno.test("pageRun: runtime series as loop-delay columns, heap in MiB, GC of all kinds per second", () => {
  const [, runtime] = pageRun(runWithTelemetry(), "g").telemetry;
  assert.equal(runtime.kind, "runtime");
  assert.deepEqual([runtime.runtime, runtime.error], ["node", "EACCES"]);
  assert.deepEqual(runtime.loopP99Ms, [10, 20, 30]);
  assert.deepEqual(runtime.heapMiB, [1, 1, 1]);
  assert.deepEqual(runtime.gcMsPerSec, [null, 100, 100]);
});

Deno.test("pageRun: a step's checks without a runtime's own sum, which is no check", () => {
  const run = makeRun({ name: "r", rps: 10, dist: { medianMs: 5, sigma: 0.3 } });
  const checks = [{ name: "ok", passed: 3, failed: 1 }, { name: `${SUM_MARK}size`, passed: 390, failed: 0 }];
  const step = { label: "GET /", requests: 4, errors: 0, latencyMs: null, checks };
  run.flows = [{ name: "f", sessions: 4, completed: 4, failed: 0, sessionMs: null, steps: [step] }];
  assert.deepEqual(pageRun(run, "g").flows?.[0].steps[0].checks, [checks[0]]);
  assert.equal(run.flows[0].steps[0].checks?.length, 2, "the results keep the sum");
});
