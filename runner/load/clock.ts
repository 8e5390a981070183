/**
 * @module
 * Waiting for an intended send time with sub-millisecond precision. Deno's `setTimeout` fires about
 * 2 ms late here whatever the delay, which would add a systematic bias to every latency measured from
 * the intended send time. So we sleep coarsely until ~2.5 ms before the target, then yield with
 * `setImmediate` (about 10 us per turn, I/O keeps flowing) until it is due. The spin only happens
 * when sends are closer together than a timer can resolve, i.e. when the generator is busy anyway.
 */
import { setImmediate } from "node:timers";

const COARSE_MARGIN_MS = 2.5;

/** Resolves after about `ms` milliseconds (timer precision). */
export function sleepMs(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

/** Resolves on the next turn of the event loop, after pending I/O callbacks. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Resolves when `performance.now()` reaches `targetMs`, within tens of microseconds. */
export async function waitUntil(targetMs: number): Promise<void> {
  const coarse = targetMs - performance.now() - COARSE_MARGIN_MS;
  if (coarse > 0.5) await sleepMs(coarse);
  while (performance.now() < targetMs) await nextTurn();
}
