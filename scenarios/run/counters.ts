/**
 * @module
 * A run's target counters over the whole run and, with a warm-up, over the measured part.
 */
import type { RunTarget } from "./targets.ts";

/**
 * The target's counters over the run and, with a warm-up, from the warm-up's end: latency excludes warm-up
 * requests, so both are reported side by side.
 */
export async function counterDeltas(
  before: Record<string, number>,
  target: RunTarget,
  atWarmupEnd: Record<string, number> | null,
): Promise<TargetCounters> {
  const after = await target.stats();
  const delta = (from: Record<string, number>) =>
    Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - (from[k] ?? 0)]));
  return { whole: delta(before), measured: atWarmupEnd ? delta(atWarmupEnd) : null };
}

/** A run's target counters: over the whole run, and after the warm-up (null without a warm-up). */
export interface TargetCounters {
  whole: Record<string, number>;
  measured: Record<string, number> | null;
}

/** Reads the target's counters `warmupMs` after the attack's start, as the warm-up ends. */
export function warmupSnapshot(target: RunTarget, warmupMs: number) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let taken: Promise<Record<string, number> | null> = Promise.resolve(null);
  return {
    onStart: warmupMs > 0
      ? (startAtEpochMs: number) => {
        taken = new Promise((resolve) => {
          timer = setTimeout(
            () => target.stats().then(resolve, () => resolve(null)),
            Math.max(0, startAtEpochMs + warmupMs - Date.now()),
          );
        });
      }
      : undefined,
    cancel: () => clearTimeout(timer),
    stats: () => taken,
  };
}
