import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { steeredDurationMs, steeredPhases } from "./steer_schedule.ts";
import { phasesSchedule } from "./schedule.ts";

const plan = [
  { durationMs: 2_000, ratePerSec: 10, name: "steady" },
  { durationMs: 2_000, ratePerSec: 10, rampToPerSec: 30, name: "ramp" },
];

/** The send times of a schedule before `ms`. */
function timesBefore(phases: Parameters<typeof phasesSchedule>[0], ms: number): number[] {
  const s = phasesSchedule(phases);
  const out: number[] = [];
  for (let i = 0; i < s.count && s.sendTimeMs(i) < ms; i++) out.push(s.sendTimeMs(i));
  return out;
}

Deno.test("a rate change holds to the end of the phase under way, then the plan goes on", () => {
  const steered = steeredPhases(plan, [{ atMs: 1_000, action: "rate", ratePerSec: 100 }]);
  assertEquals(steered, [
    { durationMs: 1_000, ratePerSec: 10, name: "steady" },
    { durationMs: 1_000, ratePerSec: 100, name: "steady" },
    { durationMs: 2_000, ratePerSec: 10, rampToPerSec: 30, name: "ramp" },
  ]);
  // Nothing before the instant moved: the same sends at the same times, so a pacer keeps its index.
  assertEquals(timesBefore(steered, 1_000), timesBefore(plan, 1_000));
  assertEquals(phasesSchedule(steered).count, 10 + 100 + 40);
});

Deno.test("a pause sends nothing until the resume; the run keeps its planned end", () => {
  const steered = steeredPhases(plan, [
    { atMs: 500, action: "pause" },
    { atMs: 1_500, action: "resume" },
  ]);
  assertEquals(steered.map((p) => [p.durationMs, p.ratePerSec]), [[500, 10], [1_000, 0], [500, 10], [
    2_000,
    10,
  ]]);
  assertEquals(steeredDurationMs(plan, [{ atMs: 500, action: "pause" }]), 4_000);
  const s = phasesSchedule(steered);
  const times = Array.from({ length: s.count }, (_, i) => s.sendTimeMs(i));
  assert(!times.some((t) => t > 500 && t < 1_500), "no send falls in the paused second");
  assertEquals(s.count, 5 + 5 + 40);
});

Deno.test("a pause across a phase's end keeps the next phase paused; a ramp split keeps its slope", () => {
  const steered = steeredPhases(plan, [{ atMs: 1_000, action: "pause" }, { atMs: 3_000, action: "resume" }]);
  assertEquals(steered.map((p) => [p.durationMs, p.ratePerSec, p.rampToPerSec]), [
    [1_000, 10, undefined],
    [1_000, 0, 0],
    [1_000, 0, 0],
    [1_000, 20, 30],
  ]);
});

Deno.test("ending a phase moves the later ones earlier; ending the last one or a stop ends the load", () => {
  const next = steeredPhases(plan, [{ atMs: 500, action: "end-phase" }]);
  assertEquals(next.map((p) => [p.durationMs, p.name]), [[500, "steady"], [2_000, "ramp"]]);
  assertEquals(steeredDurationMs(plan, [{ atMs: 3_000, action: "end-phase" }]), 3_000);
  assertEquals(steeredDurationMs(plan, [{ atMs: 1_200, action: "stop" }]), 1_200);
  // A rate change, then ending its phase: the next phase of the plan, at its own rates.
  const both = steeredPhases(plan, [
    { atMs: 200, action: "rate", ratePerSec: 50 },
    { atMs: 700, action: "end-phase" },
  ]);
  assertEquals(both.map((p) => [p.durationMs, p.ratePerSec]), [[200, 10], [500, 50], [2_000, 10]]);
});

Deno.test("changes past the end or before the start are clamped; connections leave the schedule alone", () => {
  assertEquals(steeredPhases(plan, [{ atMs: 9_000, action: "rate", ratePerSec: 5 }]), plan);
  assertEquals(steeredPhases(plan, [{ atMs: 1_000, action: "connections" }]).length, 3);
  assertEquals(steeredPhases(plan, [{ atMs: -5, action: "pause" }])[0].ratePerSec, 0);
});
