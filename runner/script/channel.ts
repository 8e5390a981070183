/**
 * @module
 * An isolate's one channel to loadlab's main isolate, kept from the script that runs in it: a script's
 * `postMessage` would be read as loadlab's own message. The isolate takes the function once, before any
 * script loads, and both names then refuse.
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
