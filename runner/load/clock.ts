/**
 * @module
 * Waiting for an intended send time with sub-millisecond precision: `setTimeout` fires ~2 ms late, so we
 * sleep until ~2.5 ms before the target, then yield with `setImmediate` (~10 us a turn) until it is due.
 */
import { setImmediate } from "node:timers";

const COARSE_MARGIN_MS = 2.5;

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
