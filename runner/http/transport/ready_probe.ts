/**
 * @module
 * How long a response that reached the kernel waits for the load worker to read it, measured without
 * touching a request: a timerfd in the worker's epoll set (transport/epoll_transport.ts) expires every
 * `PROBE_PERIOD_MS` and becomes ready exactly then, joining the tail of the same ready list the sockets'
 * events queue in. The pump takes that list in order, so the time from the expiry to the moment the pump
 * reaches the probe's event is the time a response that became readable at that instant waited: behind
 * the events ahead of it, the turn the worker was busy with, its timers, its garbage collection and its
 * wait for a core. A worker that keeps up reaches it within a fraction of a millisecond; a worker whose
 * own queue sets the latency (a crowd of 10,000 connections on one core) reaches it a large part of the
 * latency late, while its timers still run on time (the pump yields every few ms). Cost: one `read` and
 * one `timerfd_settime` per period, none per request. Sums are taken by the worker's meter
 * (runner/stats/generator_meter.ts) and judged in results/conclude/generator_saturation.ts.
 */
import { libc } from "./epoll_ffi.ts";

/** How often the probe expires (ms): a few samples per 250 ms interval even when each waits 100 ms. */
export const PROBE_PERIOD_MS = 10;
/** The probe's token in the epoll set: never a socket's (their tokens are small slot numbers). */
export const PROBE_TOKEN = 0xffffffff;

const CLOCK_MONOTONIC = 1;
const TFD_NONBLOCK = 0o4000;
const TFD_CLOEXEC = 0o2000000;

/** Waits measured since the last `take`: how many, and their sum (ms). */
export interface ReadyWaitSum {
  count: number;
  sumMs: number;
}

/** One worker's timerfd probe; `null` from `open` where the kernel refuses a timerfd. */
export class ReadyProbe {
  readonly #c = libc();
  /** `struct itimerspec`: interval (sec, nsec) then value (sec, nsec), 64-bit words, low halves used. */
  readonly #spec = new Int32Array(8);
  readonly #specBytes = new Uint8Array(this.#spec.buffer);
  readonly #old = new Uint8Array(32);
  readonly #expirations = new Uint8Array(8);
  #dueMs = Infinity;
  #count = 0;
  #sumMs = 0;

  private constructor(readonly fd: number) {}

  /** A probe whose timer is not armed yet (`restart` arms it); null when no timerfd can be made. */
  static open(): ReadyProbe | null {
    const fd = libc().timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    return fd < 0 ? null : new ReadyProbe(fd);
  }

  /**
   * Forgets an expiry no pump was there to take (the worker had no socket waiting) and arms the next:
   * called when the pump starts, so a wait is only ever measured while the pump runs.
   */
  restart(nowMs: number): void {
    this.#c.read(this.fd, this.#expirations, 8);
    this.#arm(nowMs);
  }

  /** The pump reached the probe's event at `nowMs`: one wait measured, the next expiry armed. */
  fired(nowMs: number): void {
    this.#c.read(this.fd, this.#expirations, 8);
    if (nowMs >= this.#dueMs) {
      this.#count++;
      this.#sumMs += nowMs - this.#dueMs;
    }
    this.#arm(nowMs);
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

  close(): void {
    this.#c.close(this.fd);
    this.#dueMs = Infinity;
  }

  /** One expiry `PROBE_PERIOD_MS` from now (one-shot: a late pump never finds a backlog of them). */
  #arm(nowMs: number): void {
    this.#spec[4] = 0;
    this.#spec[6] = PROBE_PERIOD_MS * 1e6;
    this.#dueMs = nowMs + PROBE_PERIOD_MS;
    if (this.#c.timerfd_settime(this.fd, 0, this.#specBytes, this.#old) < 0) this.#dueMs = Infinity;
  }
}
