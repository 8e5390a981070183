/**
 * @module
 * How long a response that reached the worker waits for it to be read, by each transport's probe: something
 * due every `PROBE_PERIOD_MS` queued behind the sockets' events, whose lateness is a ready response's wait.
 */
import { CLOCK_MONOTONIC, EpollSys, epollUnavailableReason, libc } from "./epoll/ffi.ts";

/** How often a probe is due (ms): a few samples per 250 ms interval even when each waits 100 ms. */
export const PROBE_PERIOD_MS = 10;

/** Waits measured since the last `take`: how many, and their sum (ms). */
export interface ReadyWaitSum {
  count: number;
  sumMs: number;
}

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

  /** The waits since the last call; an overdue expiry's wait so far counts as one (a lower bound). */
  take(nowMs: number): ReadyWaitSum {
    if (this.#count === 0 && nowMs > this.#dueMs) return { count: 1, sumMs: nowMs - this.#dueMs };
    const sum = { count: this.#count, sumMs: this.#sumMs };
    this.#count = 0;
    this.#sumMs = 0;
    return sum;
  }
}

/** The probe's token in the epoll set: never a socket's (their tokens are small slot numbers). */
export const PROBE_TOKEN = 0xffffffff;

const TFD_NONBLOCK = 0o4000;
const TFD_CLOEXEC = 0o2000000;

/** One worker's timerfd probe; one `read` and one `timerfd_settime` per period, none per request. */
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

/** Probes left unreached at most (a 10 s backlog): past it none starts until one is reached. */
const MAX_PENDING = 1000;

/**
 * One worker's probes on the runtime's queue of completed operations (closed runs on the deno transport).
 * Completions come out of order, so an interval's wait is Little's law over probes started every period.
 */
export class LoopLagProbe {
  /** Due times (ms) of the probes started and not yet reached, by sequence number. */
  readonly #pending = new Map<number, number>();
  #next = 0;
  /** Probes started and overdue time (ms) reached since the last take, and when that was. */
  #started = 0;
  #sumMs = 0;
  #takenMs = 0;
  #closed = false;
  /** The off-thread sleep's binding; null where FFI is out of reach. */
  #sys: EpollSys | null = null;
  #timer: ReturnType<typeof setInterval> | null = null;

  /** The waits measured since the last call (the first call starts the probe and measures nothing). */
  take(): ReadyWaitSum {
    const nowMs = performance.now();
    if (this.#timer === null) {
      if (!this.#closed) this.#start(nowMs);
      return { count: 0, sumMs: 0 };
    }
    let sumMs = this.#sumMs;
    for (const dueMs of this.#pending.values()) sumMs += Math.max(0, nowMs - Math.max(dueMs, this.#takenMs));
    const count = sumMs > 0 ? Math.max(1, this.#started) : this.#started;
    this.#started = 0;
    this.#sumMs = 0;
    this.#takenMs = nowMs;
    return { count, sumMs };
  }

  close(): void {
    this.#closed = true;
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    this.#pending.clear();
  }

  #start(nowMs: number): void {
    if (epollUnavailableReason() === null) this.#sys = new EpollSys();
    this.#takenMs = nowMs;
    const timer = setInterval(this.#arm, PROBE_PERIOD_MS);
    Deno.unrefTimer(timer);
    this.#timer = timer;
    this.#arm();
  }

  readonly #arm = (): void => {
    if (this.#pending.size >= MAX_PENDING) return;
    const id = this.#next++;
    this.#started++;
    this.#pending.set(id, performance.now() + PROBE_PERIOD_MS);
    const reached = () => this.#reached(id);
    if (this.#sys !== null) {
      this.#sys.sleepOffThread(PROBE_PERIOD_MS).then(reached, reached);
      return;
    }
    Deno.unrefTimer(setTimeout(reached, PROBE_PERIOD_MS));
  };

  #reached(id: number): void {
    const dueMs = this.#pending.get(id);
    if (dueMs === undefined) return;
    this.#pending.delete(id);
    this.#sumMs += Math.max(0, performance.now() - Math.max(dueMs, this.#takenMs));
  }
}
