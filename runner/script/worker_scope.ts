/**
 * @module
 * The two names a script tells a worker by, put back in an isolate loadlab starts with
 * `node:worker_threads` (a load worker, or the isolate a script's setup and teardown run in): its global is
 * a web worker's (a DedicatedWorkerGlobalScope, with postMessage, onmessage, close and events) but for
 * `self` and `WorkerGlobalScope`. Called before any script loads, so the script sees a web worker's global
 * whichever way its isolate was started.
 */

/** Sets `self` and `WorkerGlobalScope` on this isolate's global when they are missing. */
export function restoreWorkerNames(): void {
  const scope = globalThis as Record<string, unknown>;
  scope.self ??= globalThis;
  scope.WorkerGlobalScope ??= Object.getPrototypeOf(Object.getPrototypeOf(globalThis)).constructor;
}
