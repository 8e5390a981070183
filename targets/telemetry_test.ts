import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { cpuUsage } from "node:process";
import { newestSlowlogId, parseRedisInfo, startTelemetry } from "./telemetry.ts";

const hasProc = Deno.build.os === "linux";
if (!hasProc) console.log("skipped: the /proc sampling tests need Linux");

Deno.test("parseRedisInfo picks the counters and gauges out of INFO", () => {
  const info = "# Clients\r\nconnected_clients:5\r\n# Memory\r\nused_memory:1048576\r\n" +
    "used_memory_human:1.00M\r\n# Stats\r\ntotal_connections_received:3\r\ntotal_commands_processed:42\r\n" +
    "keyspace_hits:7\r\nkeyspace_misses:2\r\nevicted_keys:4\r\n";
  assertEquals(parseRedisInfo(info), {
    commands: 42,
    hits: 7,
    misses: 2,
    evicted: 4,
    usedMemoryBytes: 1048576,
    connectedClients: 5,
  });
});

Deno.test("newestSlowlogId reads the id of SLOWLOG GET 1, -1 for an empty log", () => {
  assertEquals(newestSlowlogId([[17, 1700000000, 12000, ["KEYS", "*"]]]), 17);
  assertEquals(newestSlowlogId([]), -1);
  assertEquals(newestSlowlogId(null), -1);
});

Deno.test(
  { name: "startTelemetry samples CPU of a busy process per interval", ignore: !hasProc },
  async () => {
    const target = {
      info: { kind: "builtin" as const },
      url: "http://127.0.0.1:1",
      processes: [{ name: "target", pid: Deno.pid }],
      stats: () => Promise.resolve({}),
      stop: () => Promise.resolve(),
    };
    const [startedMs, startedCpu] = [performance.now(), cpuUsage()];
    const telemetry = startTelemetry(target, { intervalMs: 200 });
    const end = performance.now() + 700;
    while (performance.now() < end) {
      const spinUntil = performance.now() + 20;
      while (performance.now() < spinUntil) { /* burn CPU */ }
      await new Promise((r) => setTimeout(r, 0)); // let the sampling timer run
    }
    const [series] = telemetry.stop();
    const usedCpu = cpuUsage(startedCpu);
    const ownPct = (usedCpu.user + usedCpu.system) / 10 / (performance.now() - startedMs);
    assertEquals(series.name, "target");
    assert(series.samples.length >= 2, `expected >= 2 samples, got ${series.samples.length}`);
    assert(series.samples.every((s) => s.rssBytes! > 0 && s.cpuPercent! >= 0));
    // The spin's share of a core is what the machine leaves it (all of one when idle, a tenth when busy):
    // the samples' mean is the process's own CPU over the same span, within a factor of two.
    const meanPct = series.samples.reduce((n, s) => n + s.cpuPercent!, 0) / series.samples.length;
    assert(
      meanPct >= ownPct / 2 && meanPct <= ownPct * 2,
      `${ownPct.toFixed(1)}% used: ${JSON.stringify(series.samples)}`,
    );
    assert(series.samples[1].tMs > series.samples[0].tMs);
  },
);
