/**
 * @module
 * k6's `exec.test.abort(message)`: the VU tells the main isolate, which stops the run (exit 108 as k6); no
 * iteration of its isolate starts after it. In init code the import fails with the marker the command reads.
 */
import { inputs, runChannel } from "../isolate_inputs.ts";

/** What an abort's error message starts with: the command tells an init-time abort (108) by it. */
export const TEST_ABORTED = "test aborted by exec.test.abort()";

/** Where an abort is told (a locustfile's `environment.runner.quit()` tells it too). */
export const TEST_ABORT_CHANNEL = "loadlab-k6-test-abort";
let sender: BroadcastChannel | null = null;
let aborted = false;

/** Whether a VU of this isolate aborted the test (its iterations then wait for the run's stop). */
export const testAborted = (): boolean => aborted;

export function abortTest(message?: unknown): never {
  aborted = true;
  const text = message === undefined ? "test aborted" : String(message);
  sender ??= runChannel(TEST_ABORT_CHANNEL);
  sender.postMessage(text);
  throw new Error(`${TEST_ABORTED}: ${text}`);
}

/** Whether a VU of any isolate called `exec.test.fail()` (the shared flag, set before the VU goes on). */
export const testFailed = (): boolean => Atomics.load(inputs.testFailed, 0) === 1;

/** k6's `exec.test.fail(message)`: the test runs on, then ends marked failed (exit 110 as k6). */
export function failTest(message?: unknown): void {
  const text = message === undefined || message === null
    ? "test marked as failed"
    : `test marked as failed: ${message}`;
  console.error(text);
  Atomics.store(inputs.testFailed, 0, 1);
}

/** In the main isolate: calls `onAbort` with the first abort's message, until the returned function stops. */
export function onTestAbort(onAbort: (message: string) => void): () => void {
  const channel = runChannel(TEST_ABORT_CHANNEL);
  let told = false;
  channel.onmessage = (e: MessageEvent<unknown>) => {
    if (told || typeof e.data !== "string") return;
    told = true;
    onAbort(e.data);
  };
  return () => channel.close();
}
