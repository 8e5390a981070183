/**
 * @module
 * The one tally of how long a ready response waited for its load worker, shared by every transport's
 * probe: each arms something due `PROBE_PERIOD_MS` ahead behind the sockets' events and reports when it was
 * due (`armed`) and reached (`reached`); the worker's meter takes the sums each tick. Pure arithmetic.
 */

/** How often a probe is due (ms): a few samples per 250 ms interval even when each waits 100 ms. */
export const PROBE_PERIOD_MS = 10;

/** Waits measured since the last `take`: how many, and their sum (ms). */
export interface ReadyWaitSum {
  count: number;
  sumMs: number;
}

/** One probe's waits, summed until taken. */
export class ReadyWaitTally {
  #dueMs = Infinity;
  #count = 0;
  #sumMs = 0;

  /** The probe's next expiry is due at `dueMs` (Infinity: none armed). */
  armed(dueMs: number): void {
    this.#dueMs = dueMs;
  }

  /** The worker reached the armed expiry at `nowMs`: one wait measured, none armed until `armed`. */
  reached(nowMs: number): void {
    if (nowMs >= this.#dueMs) {
      this.#count++;
      this.#sumMs += nowMs - this.#dueMs;
    }
    this.#dueMs = Infinity;
  }

  /**
   * The waits since the last call. When none was measured and the expiry is overdue, its wait so far
   * counts as one (a lower bound), so a worker too far behind to reach the probe still says how far.
   */
  take(nowMs: number): ReadyWaitSum {
    if (this.#count === 0 && nowMs > this.#dueMs) return { count: 1, sumMs: nowMs - this.#dueMs };
    const sum = { count: this.#count, sumMs: this.#sumMs };
    this.#count = 0;
    this.#sumMs = 0;
    return sum;
  }
}
