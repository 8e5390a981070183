/**
 * A process that keeps its load isolates (`keepLoadWorkers`, for the tests' many in-process runs): a
 * script-less run's isolates, once it ended well and left nothing open, serve the next runs of their limits,
 * and every run's counts agree with what the target received. A file of its own: keeping is for the whole
 * process.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { type AttackConfigInput, parseAttackConfig } from "../config.ts";
import { runAttack } from "../attack.ts";
import { keepLoadWorkers, takeEarlyWorker } from "./load_worker.ts";
import { memoryLimitMbOf } from "./memory_limit.ts";

Deno.test("kept isolates serve the next runs of their limits, each run counted as the target counted it", async () => {
  keepLoadWorkers();
  let received = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    received++;
    return new Response("ok");
  });
  try {
    const url = `http://127.0.0.1:${server.addr.port}/`;
    const runs: AttackConfigInput[] = [
      { url, workers: 2, model: "count", requests: 5, connections: 2 },
      { url, workers: 2, model: "count", requests: 9, connections: 2 },
      // Last: its generator warm-up's sink, in the isolate, must leave no socket open for it to be kept.
      { url, workers: 2, model: "connections", connections: 2, durationMs: 300, generatorWarmup: true },
    ];
    for (const run of runs) {
      const before = received;
      const r = await runAttack(parseAttackConfig(run));
      ok(r.requests > 0, "sent something");
      assertEquals([r.requests, r.errors], [received - before, {}]);
    }
    // The last run's two isolates wait, their "ready" told again, for a run of their limits.
    for (const _ of [1, 2]) {
      const kept = takeEarlyWorker(12, memoryLimitMbOf({ workers: 2 }));
      ok(kept !== null, "an isolate was kept");
      assertEquals(kept.emitted, [{ data: { type: "ready" } }]);
      await kept.worker.terminate();
    }
    assertEquals(takeEarlyWorker(12, memoryLimitMbOf({ workers: 2 })), null);
  } finally {
    await server.shutdown();
  }
});
