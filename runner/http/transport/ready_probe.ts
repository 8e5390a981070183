/**
 * @module
 * How long a response that reached the kernel waits for the load worker to read it, measured without
 * touching a request: a timerfd in the worker's epoll set becomes ready every `PROBE_PERIOD_MS` behind the
 * sockets' events, so how late the pump reaches it is a ready response's wait (the busy turn, timers, GC,
 * the wait for a core). One `read` and one `timerfd_settime` per period, none per request.
 */
import { libc } from "./epoll/ffi.ts";
import { PROBE_PERIOD_MS, type ReadyWaitSum, ReadyWaitTally } from "./ready_wait.ts";
/** The probe's token in the epoll set: never a socket's (their tokens are small slot numbers). */
export const PROBE_TOKEN = 0xffffffff;

const CLOCK_MONOTONIC = 1;
const TFD_NONBLOCK = 0o4000;
const TFD_CLOEXEC = 0o2000000;

/** One worker's timerfd probe; `null` from `open` where the kernel refuses a timerfd. */
export class ReadyProbe {
  readonly #c = libc();
  /** `struct itimerspec`: interval (sec, nsec) then value (sec, nsec), 64-bit words, low halves used. */
  readonly #spec = new Int32Array(8);
  readonly #specBytes = new Uint8Array(this.#spec.buffer);
  readonly #old = new Uint8Array(32);
  readonly #expirations = new Uint8Array(8);
  readonly #tally = new ReadyWaitTally();

  private constructor(readonly fd: number) {}

  /** A probe whose timer is not armed yet (`restart` arms it); null when no timerfd can be made. */
  static open(): ReadyProbe | null {
    const fd = libc().timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    return fd < 0 ? null : new ReadyProbe(fd);
  }

  /** Forgets an expiry no pump took and arms the next, as the pump starts. */
  restart(nowMs: number): void {
    this.#c.read(this.fd, this.#expirations, 8);
    this.#arm(nowMs);
  }

  /** The pump reached the probe's event at `nowMs`: one wait measured, the next expiry armed. */
  fired(nowMs: number): void {
    this.#c.read(this.fd, this.#expirations, 8);
    this.#tally.reached(nowMs);
    this.#arm(nowMs);
  }

  /** The waits measured since the last call (transport/ready_wait.ts `take`). */
  take(nowMs: number): ReadyWaitSum {
    return this.#tally.take(nowMs);
  }

  close(): void {
    this.#c.close(this.fd);
    this.#tally.armed(Infinity);
  }

  /** One expiry `PROBE_PERIOD_MS` from now (one-shot: a late pump never finds a backlog of them). */
  #arm(nowMs: number): void {
    this.#spec[4] = 0;
    this.#spec[6] = PROBE_PERIOD_MS * 1e6;
    const armed = this.#c.timerfd_settime(this.fd, 0, this.#specBytes, this.#old) >= 0;
    this.#tally.armed(armed ? nowMs + PROBE_PERIOD_MS : Infinity);
  }
}
