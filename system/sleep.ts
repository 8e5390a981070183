/**
 * @module
 * The one abortable sleep: a pause that ends early when its signal aborts, so a cooldown between runs or
 * a think time inside a flow never holds up Ctrl-C or the end of a run.
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
