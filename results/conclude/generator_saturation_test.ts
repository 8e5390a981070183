import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { busierLoad, generatorSaturation, SATURATED_PCT, saturationText } from "./generator_saturation.ts";

const load = (busy: number, wait: number, lag = 0) => ({
  generatorBusyPct: busy,
  generatorWaitPct: wait,
  loopLagMs: lag,
});

Deno.test("busierLoad keeps the worker that ran or waited for a core most, with the larger loop lag", () => {
  assertEquals(busierLoad(load(30, 10, 50), load(20, 70, 4)), load(20, 70, 50));
  assertEquals(busierLoad(undefined, load(1, 2, 3)), load(1, 2, 3));
  assertEquals(busierLoad(undefined, undefined), undefined);
});

Deno.test("a run is generator-bound when most of two or more judged intervals are saturated", () => {
  const hot = load(20, SATURATED_PCT - 20, 300);
  const cool = load(5, 30, 4);
  // Runnable all the time on a busy machine, but its timers on time: the machine, not the worker's queue.
  const busyMachine = load(15, 80, 40);
  assertEquals(generatorSaturation([busyMachine, busyMachine, busyMachine])?.bound, false);
  assertEquals(generatorSaturation([hot, hot, cool, {}])?.bound, true);
  assertEquals(generatorSaturation([hot, cool, {}])?.bound, false);
  assertEquals(generatorSaturation([hot, cool, cool])?.bound, false);
  // One interval says nothing: a connect storm at the start of a run.
  assertEquals(generatorSaturation([hot])?.bound, false);
  assertEquals(generatorSaturation([{}, {}]), null);
  const s = generatorSaturation([hot, hot])!;
  assertEquals([s.judged, s.saturated, s.busyPct, s.waitPct, s.loopLagMs], [2, 2, 20, 60, 300]);
  assertEquals(
    saturationText(s),
    "the load worker was saturated (running or waiting for a core at least 80% of the time, its timers at " +
      "least 100 ms late) in 2 of 2 intervals (running 20%, waiting for a core 60%, timers up to 300 ms late)",
  );
});

Deno.test("a closed run whose received responses wait most of the latency for the worker is saturated", () => {
  // A crowd of fixed requests: timers on time, but a response waits 84 of the median 117 ms to be read.
  const crowd = { ...load(89, 10, 9), readyWaitMs: 84, p50: 117 };
  const s = generatorSaturation([crowd, crowd, { ...crowd, readyWaitMs: 30 }])!;
  assertEquals([s.saturated, s.bound], [2, true]);
  assertEquals(
    saturationText(s),
    "the load worker was saturated (running or waiting for a core at least 80% of the time, its timers at " +
      "least 100 ms late or a received response waiting for it at least 50% of the median latency and " +
      "50 ms (or 4 times its wait for a core at each wake-up), or 10 ms while it ran on its core 80% of the " +
      "time itself) in 2 of 3 intervals (running 89%, " +
      "waiting for a core 10%, timers up to 9 ms late, a received " +
      "response waited 66 ms for it on average, the median latency 117 ms)",
  );
  // A slow server: the worker runnable on a busy machine, its responses read at once.
  const slowServer = { ...load(20, 70, 50), readyWaitMs: 8, p50: 170 };
  assertEquals(generatorSaturation([slowServer, slowServer])?.bound, false);
  // A light worker on a busy machine: each wake-up waits for a core most of a short latency, never 50 ms.
  const busyMachine = { ...load(10, 85, 40), readyWaitMs: 40, p50: 45 };
  assertEquals(generatorSaturation([busyMachine, busyMachine])?.bound, false);
  // Its wait for a core at each wake-up counted: about its answers' wait, the machine's queue, not its own.
  const wokenLate = { ...busyMachine, wakeWaitMs: 30 };
  assertEquals(generatorSaturation([wokenLate, wokenLate])?.bound, false);
  // A crowd beside two busy loops: the worker runs half the time, its answers wait 45 of 55 ms, far more
  // than the 0.03 ms it waits for a core at each wake-up: its own queue, under 50 ms.
  const crowdOnBusyMachine = { ...load(48, 52, 6), readyWaitMs: 45, p50: 55, wakeWaitMs: 0.03 };
  assertEquals(generatorSaturation([crowdOnBusyMachine, crowdOnBusyMachine])?.bound, true);
  // A worker running its core flat out on an idle machine: 2,000 connections' answers wait all of their
  // 13 ms for it, under 50 ms but its own queue; at 50 connections they wait a fraction of a millisecond.
  const ownQueue = { ...load(99, 1, 5), readyWaitMs: 13, p50: 13 };
  assertEquals(generatorSaturation([ownQueue, ownQueue])?.bound, true);
  const fewConnections = { ...load(99, 1, 5), readyWaitMs: 0.2, p50: 0.3 };
  assertEquals(generatorSaturation([fewConnections, fewConnections])?.bound, false);
  // A worker that was not saturated is not judged by its wait, nor an interval without its latency.
  const unjudged = [{ ...crowd, generatorBusyPct: 50 }, { ...crowd, p50: undefined }, { ...crowd, p50: 0 }];
  assertEquals(generatorSaturation(unjudged)?.saturated, 0);
});

Deno.test("busierLoad keeps the longer ready wait of two workers, and none when neither measured it", () => {
  assertEquals(busierLoad({ ...load(30, 10), readyWaitMs: 5 }, { ...load(20, 70), readyWaitMs: 90 }), {
    ...load(20, 70),
    readyWaitMs: 90,
  });
  assertEquals(busierLoad({ ...load(90, 0), readyWaitMs: 70 }, load(20, 0)), {
    ...load(90, 0),
    readyWaitMs: 70,
  });
  assertEquals("readyWaitMs" in busierLoad(load(1, 2), load(3, 4))!, false);
});
