/**
 * @module
 * The warm-up's backlog stays the warm-up's (throughput model, end to end against a real slow server):
 * when the target answers far fewer requests than asked during the warm-up, the sends still queued at
 * t0 are left out instead of being served inside the measured window ahead of the run's own. So the
 * run's own sends are answered and counted, achieved req/s never exceeds the requested rate, and every
 * intended send of the window is accounted for as answered, failed, dropped or still in flight. Asserts
 * no speed: only counts and bounds that hold however busy the machine is.
 */
import { ok } from "node:assert/strict";
import { parseAttackConfig } from "../runner/config.ts";
import { runAttack } from "../runner/attack.ts";
import { sendFacts } from "../results/conclude/send_counts.ts";

Deno.test("throughput: a warm-up backlog is not served in the measured window; achieved stays within requested", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async () => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    return new Response("ok");
  });
  try {
    // 2 connections of 20 ms answer at most 100/s; 400/s asked over a 600 ms warm-up leaves a backlog of
    // about 180 sends at t0, more than the 500 ms window could serve before any send of its own.
    const run = await runAttack(parseAttackConfig({
      url: `http://127.0.0.1:${server.addr.port}/`,
      model: "throughput",
      ratePerSec: 400,
      connections: 2,
      warmupMs: 600,
      durationMs: 500,
      intervalMs: 100,
    }));
    const f = sendFacts(run);
    ok(run.requests > 0, `the run's own sends were answered: ${JSON.stringify(f)}`);
    ok(run.rps <= 400 * 1.02, `achieved ${run.rps} req/s within the requested 400`);
    // The window scheduled 200 sends: answered, failed and dropped ones are at most those.
    ok(f.sent + f.dropped <= 200, `sent ${f.sent} + dropped ${f.dropped} within the window's 200 sends`);
  } finally {
    await server.shutdown();
  }
});
