/**
 * @module
 * The one tally of how long a ready response waited for its load worker, shared by every transport's
 * probe: the epoll transport's timerfd (transport/ready_probe.ts), the io_uring transport's timeout
 * request (transport/uring_transport.ts) and the deno transport's timer (transport/loop_lag_probe.ts).
 * Each probe arms something due `PROBE_PERIOD_MS` from now that becomes ready behind the sockets' own
 * events, tells the tally when it was due (`armed`) and when the worker reached it (`reached`); the
 * worker's meter (runner/stats/generator_meter.ts) takes the sums once per tick. Pure arithmetic: no
 * system call, nothing per request.
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
   * The waits measured since the last call, and none kept. When none was and the expiry is overdue at
   * `nowMs` (a queue longer than the meter's period), its wait so far counts as one: a lower bound, so
   * a worker too far behind to reach the probe at all still says how far.
   */
  take(nowMs: number): ReadyWaitSum {
    if (this.#count === 0 && nowMs > this.#dueMs) return { count: 1, sumMs: nowMs - this.#dueMs };
    const sum = { count: this.#count, sumMs: this.#sumMs };
    this.#count = 0;
    this.#sumMs = 0;
    return sum;
  }
}
