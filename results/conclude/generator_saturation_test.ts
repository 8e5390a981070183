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
