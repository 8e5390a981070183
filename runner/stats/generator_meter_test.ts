import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { GeneratorMeter } from "./generator_meter.ts";
import { idleSample } from "./sample.ts";

Deno.test("the meter shares each tick's run and wait time among the intervals it spans", () => {
  let runMs = 0, waitMs = 0;
  // Interval 250 ms from origin 1000, a 50 ms timer.
  const meter = new GeneratorMeter(1000, 250, 50, { sched: () => ({ runMs, waitMs }) }, 1000);
  runMs = 25, waitMs = 10;
  meter.tick(1050); // 50 ms in interval 0: 25 run, 10 waited.
  runMs = 425, waitMs = 210;
  // 500 ms, 450 late, running 80% and waiting 40%: 200 ms to interval 0, 250 to 1, 50 to 2.
  meter.tick(1550);
  const samples = meter.attach([0, 1, 2, 3].map((i) => idleSample(i, 0, 1, false)));
  assertEquals(samples[0].generator, { generatorBusyPct: 74, generatorWaitPct: 36, loopLagMs: 450 });
  assertEquals(samples[1].generator, { generatorBusyPct: 80, generatorWaitPct: 40, loopLagMs: 450 });
  assertEquals(samples[2].generator, { generatorBusyPct: 80, generatorWaitPct: 40, loopLagMs: 450 });
  // No tick in interval 3 yet: nothing said of it.
  assertEquals(samples[3].generator, undefined);
});

Deno.test("the meter says nothing before the origin nor where the kernel keeps no schedstat", () => {
  const early = new GeneratorMeter(1000, 250, 50, { sched: () => ({ runMs: 1, waitMs: 1 }) }, 900);
  early.tick(950);
  assertEquals(early.attach([idleSample(0, 0, 1, false)])[0].generator, undefined);
  const none = new GeneratorMeter(0, 250, 50, { sched: () => null }, 10);
  none.tick(60);
  assertEquals(none.attach([idleSample(0, 0, 1, false)])[0].generator, undefined);
});

Deno.test("an interval without a sample (a blocked start) gets an empty one with its shares, in order", () => {
  let runMs = 0;
  const meter = new GeneratorMeter(0, 250, 50, { sched: () => ({ runMs, waitMs: 0 }) }, 0);
  runMs = 600;
  meter.tick(600); // One turn of 600 ms: intervals 0, 1 and part of 2.
  const out = meter.attach([idleSample(2, 0, 10, false)]);
  assertEquals(out.map((s) => [s.index, s.connections, s.generator?.generatorBusyPct]), [
    [0, 0, 100],
    [1, 0, 100],
    [2, 10, 100],
  ]);
});

Deno.test("the meter averages the transport's ready waits per interval, shared by overlap", () => {
  let ready = { count: 0, sumMs: 0 };
  const take = () => {
    const taken = ready;
    ready = { count: 0, sumMs: 0 };
    return taken;
  };
  const meter = new GeneratorMeter(
    0,
    250,
    50,
    { sched: () => ({ runMs: 0, waitMs: 0 }), readyWait: take },
    0,
  );
  ready = { count: 4, sumMs: 80 };
  meter.tick(50); // 4 waits of 20 ms in interval 0.
  ready = { count: 10, sumMs: 1000 };
  meter.tick(450); // 400 ms: 200 to interval 0, 200 to 1, waits of 100 ms each.
  const [first, second] = meter.attach([0, 1].map((i) => idleSample(i, 0, 1, false)));
  assertEquals(first.generator?.readyWaitMs, 64.4); // (80 + 500) / (4 + 5), in tenths
  assertEquals(second.generator?.readyWaitMs, 100);
  // Without a transport that measures it, no ready wait is written.
  const none = new GeneratorMeter(0, 250, 50, { sched: () => ({ runMs: 0, waitMs: 0 }) }, 0);
  none.tick(50);
  assertEquals("readyWaitMs" in none.attach([idleSample(0, 0, 1, false)])[0].generator!, false);
});

Deno.test("the meter says how long the thread waited for a core each time it was put on one", () => {
  let runMs = 0, waitMs = 0, slices = 0;
  const meter = new GeneratorMeter(0, 250, 50, { sched: () => ({ runMs, waitMs, slices }) }, 0);
  runMs = 100, waitMs = 120, slices = 4000; // beside busy loops: preempted often, briefly each time
  meter.tick(250);
  const [sample] = meter.attach([idleSample(0, 0, 1, false)]);
  assertEquals(sample.generator?.wakeWaitMs, 0.03);
  // Where the kernel does not count the slices, nothing is said of the wake-ups.
  const uncounted = new GeneratorMeter(0, 250, 50, { sched: () => ({ runMs, waitMs }) }, 0);
  uncounted.tick(250);
  assertEquals(uncounted.attach([idleSample(0, 0, 1, false)])[0].generator?.wakeWaitMs, undefined);
});
