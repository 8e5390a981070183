import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { parseAttackConfig } from "../config.ts";
import { littlesLawPool, PRE_CONNECT_FLOOR } from "./pre_connect.ts";
import { poolSizeOf } from "./models/mod.ts";

const url = "http://127.0.0.1:1/";

Deno.test("Little's law: 2 x rate x W, at least the floor, at most the bound", () => {
  assertEquals(littlesLawPool(10_000, 0.1, 1000), PRE_CONNECT_FLOOR); // 2 x 10k/s x 0.1 ms = 2
  assertEquals(littlesLawPool(10_000, 5, 1000), 100);
  assertEquals(littlesLawPool(10_000, 500, 1000), 1000);
  assertEquals(littlesLawPool(10_000, 5, 2), 2, "the bound wins over the floor");
});

Deno.test("pool rule per model: fixed count, Little's law at the first sending phase, or nothing", () => {
  const rateInput = {
    url,
    model: "rate" as const,
    phases: [{ durationMs: 1000, ratePerSec: 0 }, { durationMs: 1000, ratePerSec: 0, rampToPerSec: 900 }],
    workers: 3,
    maxConnections: 100,
  };
  assertEquals(poolSizeOf(parseAttackConfig(rateInput), 0, 3), { ratePerSec: 300, max: 34 });
  assertEquals(poolSizeOf(parseAttackConfig({ ...rateInput, preConnect: 10 }), 2, 3), { count: 3 });
  const count = parseAttackConfig({ url, model: "count", requests: 5, ratePerSec: 50 });
  assertEquals(poolSizeOf(count, 0, 1), { ratePerSec: 50, max: 1000 });
  const throughput = parseAttackConfig({ url, model: "throughput", ratePerSec: 50, connections: 7 });
  assertEquals(poolSizeOf(throughput, 0, 2), { count: 4 });
  assertEquals(poolSizeOf(parseAttackConfig({ url, model: "connections" }), 0, 1), null);
  assertEquals(poolSizeOf(parseAttackConfig({ url, model: "count", requests: 5 }), 0, 1), null);
  assertEquals(poolSizeOf({ ...count, connection: "per-arrival" }, 0, 1), null);
});
