/**
 * @module
 * Drives an open-model schedule: each worker takes every W-th send and dispatches it at its intended time;
 * sends due while the loop was busy go in a batch with their times, those past `lateBoundMs` are dropped.
 */
import { LATE_SEND_MS, type LoadContext } from "./executor.ts";
import { nextTurn } from "./clock.ts";
import { phasesSchedule, type Schedule } from "./schedule.ts";

type Dispatch = (intendedMs: number, late: boolean) => void;

/** Sends dispatched in one turn of the event loop at most, so responses and the stop get their turn. */
const MAX_BATCH = 1_024;

/** Runs this worker's share of `schedule` from `ctx.startMs`; resolves after the last dispatch. */
export async function pace(ctx: LoadContext, schedule: Schedule, dispatch: Dispatch): Promise<void> {
  const stride = ctx.workerCount;
  const lateBoundMs = ctx.config.lateBoundMs;
  const steer = ctx.steer;
  let version = 0;
  let i = ctx.workerIndex;
  while (!ctx.stopRequested) {
    // A steering change: the same sends before its instant, the new ones after (steer_schedule.ts).
    if (version !== steer.version) {
      version = steer.version;
      if (steer.reshapes) schedule = phasesSchedule(steer.phases());
    }
    let dueMs = i < schedule.count ? ctx.startMs + schedule.sendTimeMs(i) : Infinity;
    if (dueMs >= ctx.endMs) {
      // Paused to the end, or nothing left: a steered run waits for a change (a resume) until its end.
      if (steer.steered && await steer.waitChange(ctx.endMs)) continue;
      break;
    }
    await steer.waitUntil(dueMs);
    if (version !== steer.version) continue;
    const nowMs = performance.now();
    if (nowMs - dueMs > lateBoundMs) {
      // Only sends due before the end are skipped (and counted): the later ones were never to be sent.
      const sinceMs = Math.min(nowMs - lateBoundMs, ctx.endMs) - ctx.startMs;
      const next = firstDueFrom(schedule, i, stride, sinceMs);
      ctx.shared.recorder.droppedSend(nowMs, dueMs, (next - i) / stride);
      i = next;
      continue;
    }
    let batch = 0;
    do {
      dispatch(dueMs, nowMs - dueMs > LATE_SEND_MS);
      i += stride;
      if (i >= schedule.count || ++batch === MAX_BATCH) break;
      dueMs = ctx.startMs + schedule.sendTimeMs(i);
    } while (dueMs <= nowMs && dueMs < ctx.endMs);
    // A due time already past resolves `waitUntil` without yielding: let I/O run between full batches.
    if (batch === MAX_BATCH) await nextTurn();
  }
}

/** The first send of this stripe due at or after `sinceMs`, by binary search (send times never decrease). */
export function firstDueFrom(schedule: Schedule, from: number, stride: number, sinceMs: number): number {
  let lo = 0, hi = Math.ceil((schedule.count - from) / stride);
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (schedule.sendTimeMs(from + mid * stride) >= sinceMs) hi = mid;
    else lo = mid + 1;
  }
  return from + lo * stride;
}
