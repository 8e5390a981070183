/**
 * bench/engine_table.ts's summary over rounds: medians per tool, each round's ratio, failed runs left out.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { summarizeRounds, type ToolResult } from "./engine_table.ts";

const row = (round: number, tool: string, rps: number | null, ratioToWrk: number | null): ToolResult => ({
  round,
  tool,
  rps,
  ratioToWrk,
  cpuUsPerRequest: rps === null ? null : 1e6 / rps,
  targetCpuUsPerRequest: rps === null ? null : 9,
  targetBusyPct: rps === null ? null : 95 + round,
});

Deno.test("summarizeRounds: medians over the rounds a tool ran in, and each of its rounds' ratios", () => {
  const summary = summarizeRounds([
    [row(1, "wrk", 100, 1), row(2, "loadlab", 95, 0.95)].map((r) => ({ ...r, round: 1 })),
    [row(2, "wrk", 110, 1), row(2, "loadlab", 121, 1.1)],
    [row(3, "wrk", 90, 1), row(3, "loadlab", null, null)],
  ]);
  assertEquals(summary.map((s) => [s.tool, s.medianRps, s.medianRatioToWrk, s.ratiosByRound]), [
    ["wrk", 100, 1, [1, 1, 1]],
    ["loadlab", 108, 1.025, [0.95, 1.1]],
  ]);
  assertEquals(summary[0].medianTargetBusyPct, 97);
  assertEquals(summary[1].medianTargetCpuUsPerRequest, 9);
  assertEquals(summarizeRounds([]), []);
});

Deno.test("summarizeRounds: the target's steady counts and their ratios to wrk's, where it counted", () => {
  const steady = (r: ToolResult, targetSteadyRps: number | null, steadyRatioToWrk: number | null) => ({
    ...r,
    targetSteadyRps,
    steadyRatioToWrk,
  });
  const summary = summarizeRounds([
    [steady(row(1, "wrk", 100, 1), 102, 1), steady(row(1, "loadlab", 96, 0.96), 104, 104 / 102)],
    [steady(row(2, "wrk", 100, 1), 100, 1), steady(row(2, "loadlab", 95, 0.95), 101, 1.01)],
    [row(3, "wrk", 100, 1), row(3, "loadlab", 97, 0.97)],
  ]);
  assertEquals(summary[1].medianSteadyRps, 102.5);
  assertEquals(summary[1].steadyRatiosByRound, [104 / 102, 1.01]);
  assertEquals(summary[1].medianSteadyRatioToWrk, (104 / 102 + 1.01) / 2);
  // A bench against --target counts nothing at the target: no steady figures, none made up.
  const none = summarizeRounds([[row(1, "wrk", 100, 1), row(1, "loadlab", 96, 0.96)]]);
  assertEquals([none[1].medianSteadyRps, none[1].medianSteadyRatioToWrk, none[1].steadyRatiosByRound], [
    null,
    null,
    [],
  ]);
});
