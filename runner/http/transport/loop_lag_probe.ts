/**
 * @module
 * How long a ready response waits for a load worker on the deno transport (`Deno.connect`), where the
 * sockets' reads are the runtime's own async operations: a completed read waits in the runtime's queue
 * of completed operations until the event loop hands it to its connection. The probe is one more such
 * operation, due every `PROBE_PERIOD_MS`: a sleep off this thread (a `nonblocking` FFI call,
 * transport/epoll_ffi.ts `sleepOffThread`) that ends exactly then; how late its promise
 * settles is how long a read that completed at that instant waited (a lower bound: a socket's readiness
 * may first wait for the runtime's reactor). Summed by the tally every transport's probe shares
 * (transport/ready_wait.ts) for the worker's meter (runner/stats/generator_meter.ts).
 *
 * Not a timer's lateness: timers run in a phase of their own every event-loop turn, and at 5,000
 * connections on one core measured 3-14 ms late while this probe's completions waited 50-680 ms and the
 * run's mean latency was 323 ms. Where FFI is not permitted (or not Linux) a timer's lateness is all
 * there is, and is what the probe measures then.
 *
 * Started by the meter's first take, so it runs only during a closed run; closed by `close`. One call
 * (or timer) per period, nothing per request.
 */
import { PROBE_PERIOD_MS, type ReadyWaitSum, ReadyWaitTally } from "./ready_wait.ts";
import { EpollSys, epollUnavailableReason } from "./epoll_ffi.ts";

/** One worker's probe on the runtime's queue of completed operations. */
export class LoopLagProbe {
  readonly #tally = new ReadyWaitTally();
  #started = false;
  #closed = false;
  /** The off-thread sleep's binding; null where FFI is out of reach. */
  #sys: EpollSys | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;

  /** The waits measured since the last call (the first call starts the probe). */
  take(): ReadyWaitSum {
    if (!this.#started && !this.#closed) this.#start();
    return this.#tally.take(performance.now());
  }

  close(): void {
    this.#closed = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#tally.armed(Infinity);
  }

  #start(): void {
    this.#started = true;
    if (epollUnavailableReason() === null) this.#sys = new EpollSys();
    this.#arm();
  }

  #arm(): void {
    this.#tally.armed(performance.now() + PROBE_PERIOD_MS);
    if (this.#sys !== null) {
      this.#sys.sleepOffThread(PROBE_PERIOD_MS).then(this.#reached, this.#reached);
      return;
    }
    const timer = setTimeout(this.#reached, PROBE_PERIOD_MS);
    Deno.unrefTimer(timer);
    this.#timer = timer;
  }

  readonly #reached = (): void => {
    if (this.#closed) return;
    this.#tally.reached(performance.now());
    this.#arm();
  };
}
