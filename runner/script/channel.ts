/**
 * @module
 * An isolate's one channel to loadlab's main isolate, kept from the script that runs in it (a load
 * worker's sessions, the setup/teardown isolate's hooks). Its messages travel on the global's
 * `postMessage`, which node:worker_threads' `parentPort.postMessage` reaches too, so a script's post (a
 * library written for web workers) was read as loadlab's own: a malformed sample crashed the main isolate
 * with a stack trace, a "done" ended a run with nothing measured, a "failed" failed it, and a setup()
 * posting null crashed loadlab before the load. The isolate takes the function once, before any script
 * loads, and both names then refuse, saying why.
 */
import { parentPort } from "node:worker_threads";

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
