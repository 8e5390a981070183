/**
 * Redis internals in telemetry, against a real redis-server loadlab starts for the built-in target: every
 * sample carries used memory and connected clients, the server's keyspace hits grow while `/redis/:key`
 * is driven, our own INFO and SLOWLOG reads are not counted as load, and a command slower than the slow
 * log's threshold shows up as an entry added in its interval.
 */
import { ok as assert } from "node:assert/strict";
import { startTarget } from "./start.ts";
import { startTelemetry } from "./telemetry.ts";
import { connectRedis } from "./redis.ts";
import { findProgram } from "../system/path_lookup.ts";
import type { TelemetrySeries } from "../results/mod.ts";

const onCi = Deno.env.get("CI") === "true";
const redisServer = findProgram("redis-server");
if (!redisServer && !onCi) console.log("skipped: the Redis telemetry test needs redis-server on PATH");

/** The Redis series' samples that carry an INFO read. */
const infoSamples = (series: TelemetrySeries[]) =>
  series.find((s) => s.kind === "redis")!.samples.filter((s) => s.usedMemoryBytes !== undefined);

Deno.test({
  name: "Redis INFO per interval: memory and clients present, hits growing, slow log entries counted",
  ignore: !redisServer && !onCi,
}, async () => {
  const target = await startTarget({ kind: "builtin", redis: true, runtimeTelemetry: false });
  const admin = await connectRedis(target.redisUrl!);
  try {
    const idle = startTelemetry(target, { intervalMs: 200 });
    await idle.ready;
    await new Promise((r) => setTimeout(r, 700));
    // A sample whose INFO read was still out (a busy machine, or the stop) has the process's fields only.
    const idleRedis = infoSamples(idle.stop());
    assert(idleRedis.length >= 2, JSON.stringify(idleRedis));
    assert(idleRedis.every((s) => s.opsPerSec === 0), `idle ops: ${JSON.stringify(idleRedis)}`);

    await admin.configSet("slowlog-log-slower-than", "0"); // every command from here on is "slow"
    const telemetry = startTelemetry(target, { intervalMs: 200 });
    await telemetry.ready;
    const deadline = performance.now() + 1500;
    for (let i = 0; i < 150 && performance.now() < deadline; i++) {
      const res = await fetch(`${target.url}/redis/key:${i % 100}`, { signal: AbortSignal.timeout(5000) });
      await res.body?.cancel();
      // Spread over several intervals: on an idle machine 150 requests fit in one.
      await new Promise((r) => setTimeout(r, 8));
    }
    await new Promise((r) => setTimeout(r, 450));
    const samples = infoSamples(telemetry.stop());
    assert(samples.length >= 2, JSON.stringify(samples));
    assert(samples.every((s) => s.usedMemoryBytes! > 0 && s.connectedClients! >= 2), JSON.stringify(samples));
    assert(samples.every((s) => s.evictedKeys === 0), "nothing should be evicted without maxmemory");
    const hits = samples.map((s) => s.hits!);
    assert(hits.filter((n) => n > 0).length >= 2, `hits per interval: ${hits}`);
    assert(samples.reduce((n, s) => n + s.slowlogAdded!, 0) > 0, `slow log: ${JSON.stringify(samples)}`);
  } finally {
    await admin.configSet("slowlog-log-slower-than", "10000").catch(() => {});
    await admin.disconnect().catch(() => {});
    await target.stop();
  }
});
