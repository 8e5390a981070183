/**
 * @module
 * Drives an open-model schedule: each worker takes every W-th send of the one global schedule (so N
 * workers together produce exactly the schedule, without coordination), waits for its intended time
 * and hands it to a dispatcher. Sends that came due while the event loop was busy are dispatched in a
 * batch with their original intended times, so lateness shows up in latency and in the late counter
 * instead of silently shifting the schedule.
 */
import type { Schedule } from "./schedule.ts";
import { LATE_SEND_MS, type LoadContext } from "./executor.ts";
import { waitUntil } from "./clock.ts";

/** Receives each send: its intended time, and whether the generator itself was late for it. */
export type Dispatch = (intendedMs: number, late: boolean) => void;

/** Runs this worker's share of `schedule` from `ctx.startMs`; resolves after the last dispatch. */
export async function pace(ctx: LoadContext, schedule: Schedule, dispatch: Dispatch): Promise<void> {
  const stride = ctx.workerCount;
  let i = ctx.workerIndex;
  while (i < schedule.count && !ctx.stopRequested) {
    let dueMs = ctx.startMs + schedule.sendTimeMs(i);
    if (dueMs >= ctx.endMs) break;
    await waitUntil(dueMs);
    const nowMs = performance.now();
    do {
      dispatch(dueMs, nowMs - dueMs > LATE_SEND_MS);
      i += stride;
      if (i >= schedule.count) break;
      dueMs = ctx.startMs + schedule.sendTimeMs(i);
    } while (dueMs <= nowMs && dueMs < ctx.endMs);
  }
}
