/**
 * The isolate started before a run's config is known (load_worker.ts): a run of its limits takes it
 * (one isolate, not two, and its "ready" starts the load whether it came before or after the run
 * listened); a run of other limits ends it and starts its own.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { parseAttackConfig } from "../config.ts";
import { runAttack } from "../attack.ts";
import { startEarlyWorker, takeEarlyWorker } from "./load_worker.ts";
import { memoryLimitMbOf } from "./memory_limit.ts";

async function withCountingTarget(fn: (url: string, received: () => number) => Promise<void>) {
  let received = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    received++;
    return new Response("ok");
  });
  try {
    await fn(`http://127.0.0.1:${server.addr.port}/`, () => received);
  } finally {
    await server.shutdown();
  }
}

Deno.test("a run of the early isolate's limits takes it, before or after its ready", async () => {
  for (const waitForReady of [false, true]) {
    await withCountingTarget(async (url, received) => {
      const ready = startEarlyWorker();
      if (waitForReady) await ready;
      const r = await runAttack(parseAttackConfig({ url, model: "count", requests: 3, connections: 1 }));
      assertEquals([r.requests, received()], [3, 3]);
      assertEquals(takeEarlyWorker(12, memoryLimitMbOf({ workers: 1 })), null, "taken by the run");
    });
  }
});

Deno.test("a run of other limits ends the early isolate and starts its own", async () => {
  await withCountingTarget(async (url, received) => {
    void startEarlyWorker();
    const r = await runAttack(
      parseAttackConfig({ url, model: "count", requests: 4, connections: 2, workers: 2 }),
    );
    assertEquals([r.requests, received()], [4, 4]);
    assertEquals(takeEarlyWorker(12, memoryLimitMbOf({ workers: 1 })), null, "ended, not kept");
  });
});
