/**
 * @module
 * What a worker's run shares with the script runtimes in it: counters every worker adds to with `Atomics`
 * (k6's `k6/execution`), what runs as the worker's load ends, and the `s.env` variable naming a session's
 * load. No imports: the k6 runtime's files are checked from a converted script's folder, without import map.
 */

export const PART_ENV = "LOADLAB_PART";

const RUN_COUNTER_SLOTS = 256;

/** One `SharedArrayBuffer` a run's main isolate makes (the loads of a run share it) for each worker. */
export function newRunCounters(): SharedArrayBuffer {
  return new SharedArrayBuffer(RUN_COUNTER_SLOTS * Uint32Array.BYTES_PER_ELEMENT);
}

/** This isolate's: its own until a run hands it the run's. */
export let runCounters = new Uint32Array(newRunCounters());

export function setRunCounters(buffer: SharedArrayBuffer): void {
  runCounters = new Uint32Array(buffer);
}

const endHooks: Array<() => unknown> = [];

/** Runs `fn` as this isolate's load ends; the worker reports done once what it returns has settled. */
export function atRunEnd(fn: () => unknown): void {
  endHooks.push(fn);
}

/** The load of this isolate ended (the worker, before it reports done). */
export function runEnding(): Promise<unknown> {
  return Promise.allSettled(endHooks.map((fn) => fn()));
}
