/**
 * @module
 * `self` and `WorkerGlobalScope`, put back in an isolate started with `node:worker_threads`, so a script
 * sees a web worker's global whichever way its isolate was started.
 */

/** Sets `self` and `WorkerGlobalScope` on this isolate's global when they are missing. */
export function restoreWorkerNames(): void {
  const scope = globalThis as Record<string, unknown>;
  scope.self ??= globalThis;
  scope.WorkerGlobalScope ??= Object.getPrototypeOf(Object.getPrototypeOf(globalThis)).constructor;
}
