import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { rampShortfall } from "./ramp_followed.ts";
import type { RunResult } from "../schema/results.ts";

const STAGES = [{ durationMs: 1000, target: 1000 }, { durationMs: 1000, target: 1000 }];

/** A ramping run whose intervals (250 ms) held `open` connections each. */
function ramp(open: number[], extra: Partial<RunResult> = {}): RunResult {
  const intervals = open.map((connections, i) => ({
    startMs: i * 250,
    connections,
    requests: i % 2 ? 0 : 5,
  }));
  return {
    model: "ramping-connections",
    config: { stages: STAGES },
    intervals,
    ...extra,
  } as unknown as RunResult;
}

Deno.test("a ramp holding under half its plan in two intervals or more falls short, the worst one named", () => {
  // Plans at the intervals' starts: 0, 250, 500, 750, 1000, 1000, ... (the last interval is not judged).
  const s = rampShortfall(ramp([10, 200, 240, 300, 600, 1000, 1000, 0]))!;
  // 300 of 750 (40%) is further short than 240 of 500 (48%); its interval had no response.
  assertEquals(s, { atSec: 0.75, open: 300, planned: 750, shortIntervals: 2, silentIntervals: 1 });
});

Deno.test("a ramp that kept up, a single slow interval, a steered run and other models are not flagged", () => {
  assertEquals(rampShortfall(ramp([0, 200, 450, 700, 1000, 1000, 1000, 0])), null);
  assertEquals(rampShortfall(ramp([0, 200, 200, 700, 1000, 1000, 1000, 0])), null);
  const steering = [{ atSec: 0.1, by: "hand", change: "pause" }] as unknown as RunResult["steering"];
  assertEquals(rampShortfall(ramp([0, 10, 10, 10, 10, 10, 10, 0], { steering })), null);
  assertEquals(rampShortfall(ramp([0, 10, 10, 10, 10, 10, 10, 0], { model: "connections" })), null);
  // A segment holds its share of the plan: 1 of 4.
  const segment = { index: 0, count: 4, startAt: "" };
  assertEquals(rampShortfall(ramp([0, 60, 120, 180, 250, 250, 250, 0], { segment })), null);
  assertEquals(rampShortfall(ramp([0, 60, 50, 50, 250, 250, 250, 0], { segment }))?.planned, 187);
});
