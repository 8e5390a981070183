/**
 * @module
 * Abortable waits (Ctrl-C never waits out a pause) and waits bounded by a timeout (a hung peer).
 */

/** Resolves after about `ms`, or at once when `signal` aborts. */
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

/** Ends with what `arm` is handed, `late()` after `timeoutMs`, or "stopped" on abort; `disarm` runs once. */
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

/** What `promise` settles to, or undefined once `ms` pass first; the timer is cleared either way. */
export function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => timer = setTimeout(() => resolve(undefined), ms));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** What `promise` settles to, or a rejection with `message` once `ms` pass first. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, message = `timed out after ${ms} ms`) {
  const settled = await within(promise.then((value) => ({ value })), ms);
  if (settled === undefined) throw new Error(message);
  return settled.value;
}
