/**
 * @module
 * What a worker's script runtime does as the worker's load ends, before the worker reports it done: the
 * k6 runtime sends what its iterations added to metrics since its last send (runner/script/k6/metrics.ts).
 * No imports: the k6 runtime's files are checked from a converted script's folder.
 */

const hooks: Array<() => void> = [];

export function atRunEnd(fn: () => void): void {
  hooks.push(fn);
}

/** The load of this isolate ended (the worker, before it reports done). */
export function runEnding(): void {
  for (const fn of hooks) fn();
}
