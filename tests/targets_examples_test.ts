/**
 * End-to-end tests of the framework apps in examples/ (docs/studies/frameworks.md) started as `kind:
 * "example"` targets: the five scenarios answer alike in every app, Redis is seeded for them, the runtime is
 * reported, and nothing is left running. `auto` uses Node when the packages are installed, else Deno's npm
 * compatibility (which fetches them from the npm registry on first use), so these run either way.
 */
import { deepStrictEqual as assertEquals, match as assertMatch } from "node:assert/strict";
import { startTarget } from "../targets/start.ts";
import { requireProgram } from "./helpers.ts";

const hasRedis = requireProgram("redis-server");

async function get(url: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.json() };
}

async function checkScenarios(url: string): Promise<void> {
  assertEquals(await get(`${url}/json`), { status: 200, body: { message: "Hello, World!" } });
  assertEquals(await get(`${url}/fib/23`), { status: 200, body: { n: 23, fib: 28657 } });
  const value = "value-7-".padEnd(64, "x"); // as targets/redis.ts seeds it
  assertEquals(await get(`${url}/redis/key:7`), { status: 200, body: { key: "key:7", value } });
  assertEquals((await get(`${url}/error/1`)).status, 500);
  assertEquals((await get(`${url}/error/2`)).body, { result: 100 });
  assertEquals(await get(`${url}/validate?id=7&name=abcdef`), {
    status: 200,
    body: { ok: true, id: 7, name: "abcdef" },
  });
  assertEquals((await get(`${url}/validate?id=x&name=abcdef`)).status, 400);
  assertEquals((await get(`${url}/validate?id=7&name=abc`)).status, 400);
}

for (const app of ["express", "fastify", "koa"] as const) {
  Deno.test({
    name: `example ${app}: the five scenarios, Redis seeded, runtime reported, gone after stop`,
    ignore: !hasRedis,
    async fn() {
      const target = await startTarget({ kind: "example", app, redis: true });
      try {
        assertEquals(target.info.kind, "example");
        assertMatch(target.info.runtime!, /^(node v\d+|deno \S+ \(npm compat\))/);
        assertMatch(target.info.command!, new RegExp(`examples/${app}/server\\.js$`));
        await checkScenarios(target.url);
      } finally {
        await target.stop();
      }
      assertEquals(await fetch(`${target.url}/json`).then(() => "up", () => "down"), "down");
    },
  });
}

Deno.test({
  name: "example express under Deno's npm compatibility when asked (runtime: deno)",
  async fn() {
    const target = await startTarget({ kind: "example", app: "express", runtime: "deno" });
    try {
      assertEquals(target.info.runtime, `deno ${Deno.version.deno} (npm compat)`);
      assertEquals(await get(`${target.url}/fib/10`), { status: 200, body: { n: 10, fib: 55 } });
      assertEquals((await get(`${target.url}/redis/key:1`)).status, 503, "no REDIS_URL without redis: true");
    } finally {
      await target.stop();
    }
  },
});
