/**
 * @module
 * Counters every worker of a run shares: one `SharedArrayBuffer` the main isolate makes per run (the loads
 * of a run with several share it) and hands each worker as it prepares, added to with `Atomics`. k6's
 * `k6/execution` reads its counts across the whole test from it (runner/script/k6/runtime.ts). No imports:
 * the k6 runtime's files are checked from a converted script's folder.
 */

export const RUN_COUNTER_SLOTS = 256;

export function newRunCounters(): SharedArrayBuffer {
  return new SharedArrayBuffer(RUN_COUNTER_SLOTS * Uint32Array.BYTES_PER_ELEMENT);
}

/** This isolate's: its own until a run hands it the run's. */
let counters = new Uint32Array(newRunCounters());

/** Makes `buffer` (from `newRunCounters`) this isolate's run counters. */
export function setRunCounters(buffer: SharedArrayBuffer): void {
  counters = new Uint32Array(buffer);
}

export function runCounters(): Uint32Array {
  return counters;
}
