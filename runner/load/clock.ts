/**
 * @module
 * Waits for a send time to ~10 us: `setTimeout` (~2 ms late) to 2.5 ms before it, then `setImmediate` turns.
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
