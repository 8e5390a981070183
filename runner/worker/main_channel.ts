/**
 * @module
 * A load worker's one channel to loadlab's main isolate, kept from the session script that runs in the
 * same isolate. The worker's messages (samples, "done", "failed", "exited") travel on the worker global's
 * `postMessage`, which node:worker_threads' `parentPort.postMessage` reaches too, so a script's post (a
 * library written for web workers) was read as the engine's: a malformed sample crashed loadlab's main
 * isolate with a stack trace, a "done" ended the run with nothing measured, a "failed" failed it. The
 * worker takes the function once, before any script loads, and both names then refuse, saying why.
 */
import { parentPort } from "node:worker_threads";
import type { WorkerToMain } from "./protocol.ts";

/** Takes the channel to the main isolate for the worker's own use; a script's post through it throws. */
export function takeMainChannel(): (msg: WorkerToMain) => void {
  const scope = globalThis as unknown as { postMessage(msg: unknown): void };
  const post = scope.postMessage.bind(scope);
  scope.postMessage = refusal("postMessage");
  if (parentPort !== null) parentPort.postMessage = refusal("parentPort.postMessage");
  return post;
}

function refusal(name: string): () => never {
  return () => {
    throw new TypeError(
      `${name}() is loadlab's own channel from a load worker to its main isolate, which would read the ` +
        "script's message as the engine's: a session script has no parent to post to; log with console.log",
    );
  };
}
