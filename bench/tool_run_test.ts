/** bench/tool_run.ts's per-request figures: the tool's and the target's CPU per request, the target's busy %. */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { perRequest } from "./tool_run.ts";

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
