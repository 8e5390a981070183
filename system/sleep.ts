/**
 * @module
 * The abortable waits: a sleep that ends early when its signal aborts, so a cooldown between runs or a
 * think time inside a flow never holds up Ctrl-C or the end of a run, and a wait for an event with a
 * timeout that ends the same way.
 */

/**
 * Resolves after about `ms` milliseconds, or at once when `signal` aborts. One timer and one listener,
 * both removed when it resolves.
 */
export function sleepUnlessAborted(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    signal?.addEventListener("abort", done, { once: true });
  });
}

/**
 * Waits for what `arm` is handed to end the wait with, for `late()`'s outcome after `timeoutMs`, or for
 * `signal` ("stopped", at once when it has aborted already); `disarm` runs as it ends, whichever way, once.
 */
export function timedWait<T>(
  timeoutMs: number,
  signal: AbortSignal,
  late: () => T,
  arm: (end: (outcome: T) => void) => void,
  disarm: () => void,
): Promise<T | "stopped"> {
  return new Promise((resolve) => {
    let ended = false;
    const timer = setTimeout(() => end(late()), timeoutMs);
    const stop = () => end("stopped");
    const end = (outcome: T | "stopped") => {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      signal.removeEventListener("abort", stop);
      disarm();
      resolve(outcome);
    };
    if (signal.aborted) return end("stopped");
    signal.addEventListener("abort", stop);
    arm(end);
  });
}
