/**
 * Unit tests of the ready-wait tally every transport's probe shares (its arithmetic, an overdue expiry
 * counted as a lower bound) and of the deno transport's probe: an event loop held by a synchronous
 * 120 ms block reads a wait of most of it, and nothing once closed. Lower bounds only: a busy machine
 * makes waits longer, never shorter.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { LoopLagProbe, PROBE_PERIOD_MS, ReadyWaitTally } from "./ready_wait.ts";

Deno.test("ready-wait tally: waits past the due time summed, an early reach not counted, sums taken once", () => {
  const tally = new ReadyWaitTally();
  tally.armed(100);
  tally.reached(130);
  tally.armed(140);
  tally.reached(139); // before its due time: measures nothing
  tally.armed(150);
  tally.reached(160);
  assertEquals(tally.take(165), { count: 2, sumMs: 40 });
  assertEquals(tally.take(165), { count: 0, sumMs: 0 });
});

Deno.test("ready-wait tally: an expiry overdue with nothing reached counts its wait so far", () => {
  const tally = new ReadyWaitTally();
  tally.armed(100);
  assertEquals(tally.take(350), { count: 1, sumMs: 250 });
  tally.armed(Infinity); // no probe armed: nothing overdue
  assertEquals(tally.take(1000), { count: 0, sumMs: 0 });
});

Deno.test({
  name: "deno transport's probe: a blocked event loop reads its block as a wait, nothing once closed",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const probe = new LoopLagProbe();
    try {
      probe.take();
      await new Promise((resolve) => setTimeout(resolve, 5 * PROBE_PERIOD_MS));
      const startMs = performance.now();
      while (performance.now() - startMs < 120) { /* the worker busy: nothing it waits for is read */ }
      // Taken at once (the overdue lower bound) or after the loop reached the probe: most of the block.
      await new Promise((resolve) => setTimeout(resolve, 3 * PROBE_PERIOD_MS));
      const blocked = probe.take();
      ok(blocked.count >= 1 && blocked.sumMs >= 80, JSON.stringify(blocked));
    } finally {
      probe.close();
    }
    assertEquals(probe.take(), { count: 0, sumMs: 0 });
  },
});
