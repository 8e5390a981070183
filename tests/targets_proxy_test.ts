/**
 * End-to-end tests of the Redis caching proxy and rate limiter, with a real redis-server started by the
 * test on a free port and the built-in target as the upstream, all as real processes.
 */
import { deepStrictEqual as assertEquals, match as assertMatch, ok as assert } from "node:assert/strict";
import { startTarget } from "../targets/start.ts";
import { startTelemetry } from "../targets/telemetry.ts";
import { startRedisServer } from "../targets/redis.ts";
import { requireProgram } from "./helpers.ts";

const hasRedis = requireProgram("redis-server");

async function get(url: string, headers?: Record<string, string>) {
  const res = await fetch(url, { headers });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

Deno.test({
  name: "caching proxy: miss, hit, expiry after the TTL; counters follow",
  ignore: !hasRedis,
  async fn() {
    const redis = await startRedisServer();
    const upstream = await startTarget({ kind: "builtin" });
    const proxy = await startTarget({
      kind: "proxy",
      upstream: { url: upstream.url },
      cacheTtlSec: 0.6,
      redisUrl: redis.url,
    });
    try {
      const first = await get(`${proxy.url}/home`);
      assertEquals([first.status, first.headers.get("x-cache")], [200, "MISS"]);
      const second = await get(`${proxy.url}/home`);
      assertEquals(second.headers.get("x-cache"), "HIT");
      assertEquals(second.text, first.text, "a hit returns the stored page (its timestamp too)");
      assertEquals(second.headers.get("content-type"), first.headers.get("content-type"));
      await new Promise((r) => setTimeout(r, 800));
      const expired = await get(`${proxy.url}/home`);
      assertEquals(expired.headers.get("x-cache"), "MISS");
      const post = await fetch(`${proxy.url}/json`, { method: "POST" });
      await post.body?.cancel();
      const notFound = await get(`${proxy.url}/nope`);
      assertEquals(notFound.status, 404);
      assertEquals((await get(`${proxy.url}/nope`)).headers.get("x-cache"), "MISS", "404s are not cached");
      const stats = await proxy.stats();
      assertEquals([stats.hits, stats.misses, stats.bypasses, stats.passes], [1, 4, 0, 1]);
    } finally {
      await proxy.stop();
      await upstream.stop();
      await redis.stop();
    }
  },
});

Deno.test({
  name: "caching proxy: compressed answers pass through intact and are cached per encoding",
  ignore: !hasRedis,
  async fn() {
    const proxy = await startTarget({
      kind: "proxy",
      upstream: { kind: "builtin", compress: true },
      cacheTtlSec: 30,
    });
    try {
      for (const expected of ["MISS", "HIT"]) {
        const res = await fetch(`${proxy.url}/home`, { headers: { "accept-encoding": "gzip" } });
        assertEquals(res.headers.get("content-encoding"), "gzip");
        assertEquals(res.headers.get("x-cache"), expected);
        assertMatch(await res.text(), /loadlab wiki/, "fetch decompresses: the body must be valid gzip");
      }
      const plain = await get(`${proxy.url}/home`, { "accept-encoding": "identity" });
      assertEquals(plain.headers.get("x-cache"), "MISS");
      assertEquals(plain.headers.get("content-encoding"), null);
      assert(proxy.redisPid, "no redisUrl given: the proxy started its own redis-server");
      assertEquals(proxy.processes.map((p) => p.name), ["proxy", "target"]);
    } finally {
      await proxy.stop();
    }
    assert(!Deno.readDirSync("/proc").some((e) => e.name === String(proxy.redisPid)), "redis-server stopped");
  },
});

Deno.test({
  name: "caching proxy: Redis killed mid-run -> requests keep succeeding, bypasses are counted",
  ignore: !hasRedis,
  async fn() {
    const redis = await startRedisServer();
    const proxy = await startTarget({
      kind: "proxy",
      upstream: { kind: "builtin" },
      cacheTtlSec: 60,
      redisUrl: redis.url,
    });
    try {
      await get(`${proxy.url}/user`);
      assertEquals((await get(`${proxy.url}/user`)).headers.get("x-cache"), "HIT");
      await redis.stop();
      for (let i = 0; i < 5; i++) {
        const res = await get(`${proxy.url}/user`);
        assertEquals(res.status, 200);
        assertEquals(res.headers.get("x-cache"), "BYPASS");
        assertEquals(JSON.parse(res.text).name, "Ada Lovelace");
      }
      const stats = await proxy.stats();
      assertEquals(stats.bypasses, 5);
      assertEquals(stats.hits, 1);
    } finally {
      await proxy.stop();
      await redis.stop();
    }
  },
});

Deno.test({
  name: "rate limiter: 429 with Retry-After, one budget shared by two proxy instances",
  ignore: !hasRedis,
  async fn() {
    const redis = await startRedisServer();
    const upstream = await startTarget({ kind: "builtin" });
    const spec = {
      kind: "proxy" as const,
      upstream: { url: upstream.url },
      rateLimit: { limit: 5, windowMs: 10_000 },
      redisUrl: redis.url,
    };
    const [a, b] = await Promise.all([startTarget(spec), startTarget(spec)]);
    try {
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 8; i++) {
        const res = await get(`${i % 2 ? b.url : a.url}/json`);
        statuses.push(res.status);
        if (res.status === 429) retryAfter = res.headers.get("retry-after");
      }
      assertEquals(statuses, [200, 200, 200, 200, 200, 429, 429, 429]);
      assert(Number(retryAfter) >= 1 && Number(retryAfter) <= 10, `Retry-After ${retryAfter}`);
      const limited = (await a.stats()).limited + (await b.stats()).limited;
      assertEquals(limited, 3);
      const other = await get(`${a.url}/json`, { "x-forwarded-for": "10.0.0.9" });
      assertEquals(other.status, 200, "another client has its own budget");
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      await upstream.stop();
      await redis.stop();
    }
  },
});

Deno.test({
  name: "telemetry: Redis ops/s, hits and misses per interval, CPU and RSS per process",
  ignore: !hasRedis,
  async fn() {
    const proxy = await startTarget({ kind: "proxy", upstream: { kind: "builtin" }, cacheTtlSec: 60 });
    const telemetry = startTelemetry(proxy, { intervalMs: 150 });
    await telemetry.ready;
    try {
      for (let i = 0; i < 20; i++) await get(`${proxy.url}/fib/15`);
      await new Promise((r) => setTimeout(r, 400));
    } finally {
      const series = telemetry.stop();
      await proxy.stop();
      assertEquals(series.map((s) => s.name), ["proxy", "target", "redis"]);
      const redis = series[2];
      assertEquals(redis.kind, "redis");
      const hits = redis.samples.reduce((n, s) => n + (s.hits ?? 0), 0);
      const misses = redis.samples.reduce((n, s) => n + (s.misses ?? 0), 0);
      assertEquals([hits, misses], [19, 1]);
      assert(redis.samples.some((s) => (s.opsPerSec ?? 0) > 0));
      assert(redis.samples.every((s) => (s.rssBytes ?? 0) > 0), "our own redis-server: RSS sampled too");
      assert(series[0].samples.length >= 2 && series[0].samples.every((s) => s.rssBytes! > 0));
    }
  },
});
