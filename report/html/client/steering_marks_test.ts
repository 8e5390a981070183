import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { steeringMarks } from "./run_charts.ts";

const steering = [
  { atSec: 1.2, action: "rate" as const, ratePerSec: 200, by: "dashboard" as const },
  { atSec: 3, action: "pause" as const, by: "terminal" as const },
  { atSec: 4.5, action: "connections" as const, connections: 40, by: "replay" as const },
];

Deno.test("report timelines mark each steering change at its instant on the measured axis", () => {
  assertEquals(steeringMarks(steering), [
    { x: 1.2, label: "rate 200/s" },
    { x: 3, label: "pause" },
    { x: 4.5, label: "connections 40" },
  ]);
  assertEquals(steeringMarks([]), []);
});

Deno.test("the live timeline counts from the load's start: a mark sits past the warm-up", () => {
  assertEquals(steeringMarks(steering, 2).map((m) => m.x), [3.2, 5, 6.5]);
});
