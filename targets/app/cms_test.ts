import { deepStrictEqual as assertEquals, ok as assert, rejects as assertRejects } from "node:assert/strict";
import { cmsStats, PoolTimeoutError, QueryPool, resolveCms, runPageQueries } from "./cms.ts";

Deno.test("resolveCms fills absent fields from the defaults (about 66 pages/s)", () => {
  const cms = resolveCms({ queries: 5, queryMs: undefined });
  assertEquals(cms, { poolSize: 4, queryMs: 20, queries: 5, acquireTimeoutMs: 5000 });
  const defaults = resolveCms();
  assertEquals(Math.floor(defaults.poolSize / (defaults.queries * defaults.queryMs / 1000)), 66);
});

Deno.test("QueryPool: at most `size` holders, waiters served in arrival order", async () => {
  const clock = { nowMs: 0 };
  const pool = new QueryPool(2, 0, () => clock.nowMs);
  const first = await pool.acquire();
  const second = await pool.acquire();
  const order: number[] = [];
  const third = pool.acquire().then((release) => (order.push(3), release));
  const fourth = pool.acquire().then((release) => (order.push(4), release));
  assertEquals(pool.queueLength, 2);
  await new Promise((r) => setTimeout(r, 5));
  assertEquals(order, [], "no slot is free yet");
  clock.nowMs = 30;
  first();
  (await third)();
  second();
  (await fourth)();
  assertEquals(order, [3, 4]);
  assertEquals(pool.queueLength, 0);
  assertEquals(pool.stats, {
    queries: 4,
    queued: 2,
    queueWaitMs: 60,
    acquireTimeouts: 0,
  });
  // Every slot is free again: the next two acquire at once.
  const again = await Promise.all([pool.acquire(), pool.acquire()]);
  assertEquals(pool.stats.queued, 2);
  again.forEach((release) => release());
});

Deno.test("QueryPool: a waiter gives up after the acquire timeout and its slot passes on", async () => {
  const pool = new QueryPool(1, 20);
  const holder = await pool.acquire();
  const late = pool.acquire();
  await assertRejects(late, PoolTimeoutError);
  assertEquals(pool.queueLength, 0);
  const next = pool.acquire();
  holder(); // the timed-out waiter is skipped: the slot goes to `next`
  (await next)();
  assertEquals(pool.stats.acquireTimeouts, 1);
  assertEquals(pool.stats.queries, 2);
});

Deno.test("runPageQueries holds a slot per query, one after another, on timers", async () => {
  const pool = new QueryPool(1);
  await Promise.all([
    runPageQueries(pool, { queries: 3, queryMs: 2 }),
    runPageQueries(pool, { queries: 3, queryMs: 2 }),
  ]);
  const stats = cmsStats(pool);
  assertEquals(stats.cmsQueries, 6);
  assert(stats.cmsQueued >= 3, "two pages on one slot: at least half the queries waited");
  assertEquals(Object.keys(stats), ["cmsQueries", "cmsQueued", "cmsQueueWaitMs", "cmsAcquireTimeouts"]);
});
