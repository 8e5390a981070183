/**
 * @module
 * Fault drills end to end, second part (issue 9): Redis killed under the caching proxy and under the
 * rate limiter and brought back on the same port (3). Every redis-server here is started by the test
 * on a free port and carries a `LOADLAB_RUN_ID` of its own, so "nothing left running" is a scan of
 * /proc for that mark.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { requireProgram } from "./helpers.ts";
import { describeProcesses, waitUntilGone } from "./marked_processes.ts";
import { type RunningTarget, startTarget } from "../targets/mod.ts";
import { findProgram } from "../targets/path_lookup.ts";
import { freePort } from "../targets/free_port.ts";

const hasRedis = requireProgram("redis-server");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A redis-server on `port`, marked with `runId`; resolves once it accepts connections. */
async function redisOn(port: number, runId: string) {
  const child = new Deno.Command(findProgram("redis-server")!, {
    // set-proc-title no: Redis would otherwise overwrite the environ that carries the mark.
    args: ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
      .concat(["--set-proc-title", "no"]),
    env: { LOADLAB_RUN_ID: runId },
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes("Ready to accept")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`redis-server on ${port} exited before it was ready:\n${seen}`);
    seen += value;
  }
  // Keep draining: a full stdout pipe would block the server.
  (async () => {
    while (!(await reader.read().catch(() => ({ done: true }))).done) { /* drain */ }
  })();
  return {
    /** SIGKILL: the outage is abrupt, no goodbye to the clients. */
    async kill() {
      try {
        child.kill("SIGKILL");
      } catch { /* gone already */ }
      await child.status;
    },
  };
}

async function get(url: string, headers?: Record<string, string>) {
  const res = await fetch(url, { headers });
  return { status: res.status, cache: res.headers.get("x-cache"), text: await res.text() };
}

/** Polls `probe` every 100 ms until it returns true; false after `withinMs`. */
async function eventually(probe: () => Promise<boolean>, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (await probe()) return true;
    await sleep(100);
  }
  return false;
}

/** Runs `fn` with a marked Redis on a free port and a proxy in front of the built-in target; cleans up. */
async function withProxy(
  name: string,
  proxyOpts: { cacheTtlSec?: number; rateLimit?: { limit: number; windowMs: number } },
  fn: (proxy: RunningTarget, redis: { kill(): Promise<void>; restart(): Promise<void> }) => Promise<void>,
) {
  const runId = `${name}-${crypto.randomUUID()}`;
  const port = freePort();
  let server = await redisOn(port, runId);
  const proxy = await startTarget({
    kind: "proxy",
    upstream: { kind: "builtin" },
    redisUrl: `redis://127.0.0.1:${port}`,
    ...proxyOpts,
  });
  try {
    await fn(proxy, {
      kill: () => server.kill(),
      async restart() {
        server = await redisOn(port, runId);
      },
    });
  } finally {
    await proxy.stop();
    await server.kill();
  }
  const left = await waitUntilGone(runId, 3000);
  assertEquals(left, [], describeProcesses(left));
}

Deno.test({
  name:
    "drill 3: Redis killed under the caching proxy: answered from the upstream, bypasses counted; back: hits resume",
  ignore: !hasRedis,
  async fn() {
    await withProxy("drill3-cache", { cacheTtlSec: 60 }, async (proxy, redis) => {
      assertEquals((await get(`${proxy.url}/user`)).cache, "MISS");
      assertEquals((await get(`${proxy.url}/user`)).cache, "HIT");
      await redis.kill();
      for (let i = 0; i < 5; i++) {
        const res = await get(`${proxy.url}/user`);
        assertEquals([res.status, res.cache], [200, "BYPASS"]);
        assertEquals(JSON.parse(res.text).name, "Ada Lovelace", "the upstream's answer, not an error page");
      }
      const down = await proxy.stats();
      assertEquals([down.hits, down.misses, down.bypasses], [1, 1, 5]);
      await redis.restart();
      // The proxy's client reconnects by itself (within a second); the new Redis is empty: a miss, then hits.
      let last = "";
      const back = await eventually(
        async () => (last = (await get(`${proxy.url}/user`)).cache ?? "") === "MISS",
        5000,
      );
      assert(back, `no MISS within 5 s of Redis coming back (last x-cache: ${last})`);
      for (let i = 0; i < 3; i++) assertEquals((await get(`${proxy.url}/user`)).cache, "HIT");
      const after = await proxy.stats();
      assertEquals([after.hits, after.misses], [4, 2]);
      assert(after.bypasses >= 5, `bypasses ${after.bypasses}`);
    });
  },
});

Deno.test({
  name:
    "drill 3: Redis killed under the rate limiter: requests let through and counted; back: limiting resumes",
  ignore: !hasRedis,
  async fn() {
    await withProxy("drill3-limit", { rateLimit: { limit: 3, windowMs: 60_000 } }, async (proxy, redis) => {
      const as = (client: string) => ({ "x-forwarded-for": client });
      const statuses = async (client: string, n: number) => {
        const out: number[] = [];
        for (let i = 0; i < n; i++) out.push((await get(`${proxy.url}/json`, as(client))).status);
        return out;
      };
      assertEquals(await statuses("10.0.0.1", 4), [200, 200, 200, 429]);
      await redis.kill();
      assertEquals(await statuses("10.0.0.1", 5), [200, 200, 200, 200, 200], "fail open while Redis is down");
      const down = await proxy.stats();
      assertEquals([down.limited, down.limiterBypasses], [1, 5]);
      await redis.restart();
      // Back once a request costs no bypass (the limiter reached Redis again).
      let bypasses = down.limiterBypasses;
      const back = await eventually(async () => {
        await get(`${proxy.url}/json`, as("10.0.0.99"));
        const now = (await proxy.stats()).limiterBypasses;
        const reached = now === bypasses;
        bypasses = now;
        return reached;
      }, 5000);
      assert(back, `the limiter still bypassed Redis 5 s after it came back (${bypasses} bypasses)`);
      assertEquals(await statuses("10.0.0.2", 4), [200, 200, 200, 429], "limiting resumed");
      const after = await proxy.stats();
      assertEquals(after.limited, 2);
      assertEquals(after.limiterBypasses, bypasses);
    });
  },
});
