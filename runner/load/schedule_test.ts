import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { constantSchedule, phasesSchedule, shareOf, slotsOf, withWarmup } from "./schedule.ts";

const near = (actual: number, expected: number, delta: number, what: string) =>
  ok(Math.abs(actual - expected) <= delta, `${what}: ${actual} not within ${expected} +- ${delta}`);

Deno.test("constant rate: send i at i * period, count = rate * duration", () => {
  const s = phasesSchedule([{ durationMs: 2000, ratePerSec: 500 }]);
  assertEquals(s.count, 1000);
  near(s.sendTimeMs(0), 0, 1e-9, "first");
  near(s.sendTimeMs(1), 2, 1e-9, "second");
  near(s.sendTimeMs(999), 1998, 1e-6, "last");
  assertEquals(s.durationMs, 2000);
});

Deno.test("no drift: send time is absolute, not a sum of periods", () => {
  const s = constantSchedule(3, { durationMs: 3_600_000 });
  assertEquals(s.count, 10_800);
  near(s.sendTimeMs(10_799), 10_799 * (1000 / 3), 1e-6, "hour-long run");
});

Deno.test("ramp 50 -> 200 over 10 s: arrivals are the trapezoid, rate grows", () => {
  const s = phasesSchedule([{ durationMs: 10_000, ratePerSec: 50, rampToPerSec: 200 }]);
  assertEquals(s.count, 1250);
  // Instantaneous rate near the start ~50/s (20 ms gaps), near the end ~200/s (5 ms gaps).
  near(s.sendTimeMs(1) - s.sendTimeMs(0), 20, 0.1, "gap at start");
  near(s.sendTimeMs(1249) - s.sendTimeMs(1248), 5, 0.1, "gap at end");
  // Half-time arrivals: 50*5 + 150*25/(2*10)... N(5s) = 0.05*5000 + 0.15*5000^2/(2*10000) = 437.5
  ok(s.sendTimeMs(437) < 5000 && s.sendTimeMs(438) > 5000);
});

Deno.test("spike and pause: 1 -> 50 -> 2 with a pause has the right counts and times", () => {
  const s = phasesSchedule([
    { durationMs: 10_000, ratePerSec: 1 },
    { durationMs: 5_000, ratePerSec: 0 },
    { durationMs: 2_000, ratePerSec: 50 },
    { durationMs: 10_000, ratePerSec: 2 },
  ]);
  assertEquals(s.count, 10 + 0 + 100 + 20);
  near(s.sendTimeMs(9), 9000, 1e-6, "last of phase 1");
  near(s.sendTimeMs(10), 15_000, 1e-6, "first of the spike comes after the pause");
  near(s.sendTimeMs(110), 17_000, 1e-6, "first of the tail");
  assertEquals(s.durationMs, 27_000);
});

Deno.test("ramp down 100 -> 0 ends at the phase end", () => {
  const s = phasesSchedule([{ durationMs: 1000, ratePerSec: 100, rampToPerSec: 0 }]);
  assertEquals(s.count, 50);
  ok(s.sendTimeMs(49) <= 1000);
  for (let i = 1; i < 50; i++) ok(s.sendTimeMs(i) > s.sendTimeMs(i - 1), "increasing");
});

Deno.test("a phase per second: each second's whole arrivals, the first a tick in, the next phase after", () => {
  const s = phasesSchedule([
    { durationMs: 2000, ratePerSec: 1, rampToPerSec: 3, perSecond: [1, 3] },
    { durationMs: 1000, ratePerSec: 2 },
  ]);
  const times = Array.from({ length: s.count }, (_, i) => Math.round(s.sendTimeMs(i)));
  assertEquals([s.count, s.durationMs, times], [6, 3000, [1000, 1333, 1666, 1999, 2000, 2500]]);
});

Deno.test("random access after sequential access gives the same times", () => {
  const s = phasesSchedule([{ durationMs: 1000, ratePerSec: 10 }, { durationMs: 1000, ratePerSec: 20 }]);
  const seq = Array.from({ length: s.count }, (_, i) => s.sendTimeMs(i));
  assertEquals(s.sendTimeMs(3), seq[3]);
  assertEquals(s.sendTimeMs(25), seq[25]);
});

Deno.test("count schedule and warm-up and worker shares", () => {
  const s = constantSchedule(1000, { count: 5 });
  assertEquals([s.count, s.sendTimeMs(4)], [5, 4]);
  assertEquals(withWarmup([{ durationMs: 100, ratePerSec: 7 }], 50)[0], {
    durationMs: 50,
    ratePerSec: 7,
    name: "warm-up",
  });
  assertEquals([0, 1, 2].map((w) => shareOf(10, w, 3)), [4, 3, 3]);
});

Deno.test("slotsOf: streams on each connection, or a concurrency dealt over all connections in turn", () => {
  const ctx = (workerIndex: number, workerCount: number, concurrency?: number) => ({
    streamsPerConnection: 13,
    concurrency,
    workerIndex,
    workerCount,
  });
  assertEquals(slotsOf(ctx(0, 1), 4), 52);
  assertEquals(slotsOf(ctx(0, 1, 50), 4), 50);
  // Connections 13, 13, 12, 12: two workers hold two each, three workers 2, 1 and 1 of them.
  assertEquals([0, 1].map((w) => slotsOf(ctx(w, 2, 50), 4)), [26, 24]);
  assertEquals([0, 1, 2].map((w) => slotsOf(ctx(w, 3, 50), 4)), [26, 12, 12]);
  assertEquals([0, 1, 2].map((w) => slotsOf(ctx(w, 3, 5), 4)), [3, 1, 1]);
});
