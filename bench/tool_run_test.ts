/**
 * bench/tool_run.ts's figures: the tool's and the target's CPU per request, the target's busy %, and the
 * target's own count per second over the middle of a run.
 */
import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import { countOver, perRequest, steadyWindow } from "./tool_run.ts";

Deno.test("perRequest: CPU per request of tool and target over rps x duration; busy % of one core", () => {
  assertEquals(perRequest(1_000, 5, 0.5, 4.5), {
    cpuUsPerRequest: 100,
    targetCpuUsPerRequest: 900,
    targetBusyPct: 90,
  });
  // Unknown CPU stays unknown; a run that completed nothing has no per-request cost.
  assertEquals(perRequest(1_000, 5, null, null), {
    cpuUsPerRequest: null,
    targetCpuUsPerRequest: null,
    targetBusyPct: null,
  });
  assertEquals(perRequest(0, 5, 1, 2).cpuUsPerRequest, null);
  assertEquals(perRequest(0, 5, 1, 2).targetBusyPct, 40);
});

Deno.test("steadyWindow: from a quarter of the run (at least 1 s) to half a second before its end", () => {
  assertEquals(steadyWindow(10), { fromMs: 2_500, toMs: 9_500 });
  assertEquals(steadyWindow(3), { fromMs: 1_000, toMs: 2_500 });
  assertEquals(steadyWindow(2.9), null);
});

Deno.test("countOver: a counter's rate between two readings, each reading's own request left out", async () => {
  // A counter that served 2,000 requests a second since it started, plus one per reading (as stub_status).
  const bornMs = performance.now();
  let readings = 0;
  const count = () => Promise.resolve(Math.floor((performance.now() - bornMs) * 2) + ++readings);
  const rate = await countOver(count, { fromMs: 50, toMs: 450 }, () => false);
  assert(rate !== null && Math.abs(rate - 2_000) < 100, `rate ${rate}`);
  assertEquals(readings, 2);
});

Deno.test("countOver: null without a counter or window, when a reading fails, or when the tool ended first", async () => {
  const count = () => Promise.resolve(1);
  assertEquals(await countOver(undefined, { fromMs: 0, toMs: 10 }, () => false), null);
  assertEquals(await countOver(count, null, () => false), null);
  assertEquals(await countOver(() => Promise.resolve(null), { fromMs: 0, toMs: 10 }, () => false), null);
  let ended = false;
  setTimeout(() => ended = true, 20);
  assertEquals(await countOver(count, { fromMs: 0, toMs: 100 }, () => ended), null);
});
