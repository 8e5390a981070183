import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { firstDueFrom, pace } from "./pacer.ts";
import { constantSchedule, phasesSchedule } from "./schedule.ts";
import type { LoadContext } from "./executor.ts";
import { WorkerSteering } from "./steer.ts";
import type { AttackConfig } from "../config.ts";
import { IntervalRecorder } from "../stats/recorder.ts";

/** A context far behind its schedule: it started `behindMs` ago and its end passed `endedMs` ago. */
function behind(behindMs: number, endedMs: number, lateBoundMs: number) {
  const nowMs = performance.now();
  const startMs = nowMs - behindMs;
  const recorder = new IntervalRecorder({ intervalMs: 1_000, originMs: startMs, uncorrected: false });
  const ctx = {
    config: { lateBoundMs },
    shared: { recorder },
    workerIndex: 0,
    workerCount: 1,
    startMs,
    endMs: nowMs - endedMs,
    stopRequested: false,
    steer: new WorkerSteering({ lateBoundMs } as unknown as AttackConfig, startMs, behindMs, () => {}),
  } as unknown as LoadContext;
  const dropped = () =>
    recorder.drain(performance.now(), true).reduce((sum, sample) => sum + sample.droppedSends, 0);
  return { ctx, dropped };
}

Deno.test("a pacer 10 s behind at 1M/s skips the stale sends in one step, counted dropped, never queued", async () => {
  // The late bound leaves 1 s past the end for the test to reach the pacer, even on busy cores.
  const { ctx, dropped } = behind(10_000, 50, 1_050);
  const schedule = constantSchedule(1_000_000, { durationMs: 10_000 });
  let dispatched = 0;
  await pace(ctx, schedule, () => {
    // Before the bound, every due send was dispatched at once: ten million of them.
    if (++dispatched > 3_000_000) {
      throw new Error("the pacer dispatched stale sends instead of dropping them");
    }
  });
  const due = firstDueFrom(schedule, 0, 1, ctx.endMs - ctx.startMs);
  const droppedSends = dropped();
  // (+-1: `start + t(i) < end` and `t(i) < end - start` may round apart at the last send)
  ok(
    Math.abs(dispatched + droppedSends - due) <= 1,
    `every send due before the end is dispatched or dropped: ${dispatched} + ${droppedSends} vs ${due}`,
  );
  ok(droppedSends > 8_000_000, `the stale sends are dropped: ${droppedSends}`);
  ok(dispatched > 0, "sends within the late bound still go");
});

Deno.test("firstDueFrom: the first send of a stripe due at or after a time", () => {
  const s = phasesSchedule([{ durationMs: 1_000, ratePerSec: 1_000 }]);
  assertEquals(firstDueFrom(s, 0, 1, 500), 500);
  assertEquals(firstDueFrom(s, 1, 4, 500), 501);
  assertEquals(firstDueFrom(s, 0, 1, 5_000), 1_000);
  assertEquals(firstDueFrom(s, 3, 2, 0), 3);
});
