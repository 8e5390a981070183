/**
 * @module
 * The global scope of an isolate a script runs in, set before any script loads: `self` and
 * `WorkerGlobalScope` put back in an isolate started with `node:worker_threads` (a script sees a web
 * worker's global whichever way its isolate was started), and the one channel to loadlab's main isolate
 * kept from the script (its `postMessage` would be read as loadlab's own message).
 */
import { parentPort } from "node:worker_threads";

/** Sets `self` and `WorkerGlobalScope` on this isolate's global when they are missing. */
export function restoreWorkerNames(): void {
  const scope = globalThis as Record<string, unknown>;
  scope.self ??= globalThis;
  scope.WorkerGlobalScope ??= Object.getPrototypeOf(Object.getPrototypeOf(globalThis)).constructor;
}

/** Takes the channel to the main isolate for loadlab's own messages; a script's post through it throws. */
export function takeMainChannel<T>(): (msg: T) => void {
  const scope = globalThis as unknown as { postMessage(msg: unknown): void };
  const post = scope.postMessage.bind(scope);
  scope.postMessage = refusal("postMessage");
  if (parentPort !== null) parentPort.postMessage = refusal("parentPort.postMessage");
  return post;
}

function refusal(name: string): () => never {
  return () => {
    throw new TypeError(
      `${name}() is loadlab's own channel from this isolate to its main one, which would read the script's ` +
        "message as loadlab's: a script has no parent to post to; log with console.log",
    );
  };
}
