/**
 * Accuracy of coordinated-omission correction: against a target that freezes 1 s in every 5 s, a
 * constant 1000 req/s for 20 s must report the corrected p90 and p99 within 5% of the truth (500 ms
 * and 950 ms), while the uncorrected latency (kept beside it) hides most of the stall.
 */
import { ok } from "node:assert/strict";
import { parseAttackConfig } from "../../runner/config.ts";
import { runAttack } from "../../runner/attack.ts";
import { expectedCorrectedPercentileMs, startFreezeServer } from "../fixtures/freeze_server.ts";

Deno.test("throughput model: corrected p90/p99 within 5% of the truth under 1 s freezes", async () => {
  const server = startFreezeServer({ freezeMs: 1000, everyMs: 5000 });
  try {
    const run = await runAttack(parseAttackConfig({
      url: server.url,
      model: "throughput",
      ratePerSec: 1000,
      durationMs: 20_000,
      connections: 100,
      timeoutMs: 5_000,
    }));
    const truth90 = expectedCorrectedPercentileMs(90);
    const truth99 = expectedCorrectedPercentileMs(99);
    const { p90, p99 } = run.latencyMs;
    const raw = run.uncorrectedLatencyMs!;
    console.log(
      `corrected p90 ${p90} ms (truth ${truth90}), p99 ${p99} ms (truth ${truth99}); ` +
        `uncorrected p90 ${raw.p90} ms, p99 ${raw.p99} ms; requests ${run.requests}, late ${run.lateSends}`,
    );
    ok(Math.abs(p90 - truth90) / truth90 <= 0.05, `corrected p90 ${p90} vs ${truth90}`);
    ok(Math.abs(p99 - truth99) / truth99 <= 0.05, `corrected p99 ${p99} vs ${truth99}`);
    ok(raw.p90 < p90 / 5, `uncorrected p90 ${raw.p90} hides the stall`);
    ok(Math.abs(run.requests - 20_000) / 20_000 < 0.02, `requests ${run.requests}`);
  } finally {
    await server.close();
  }
});
