/**
 * @module
 * How long a ready response waits for a load worker on the deno transport (`Deno.connect`), where the
 * sockets' reads are the runtime's own async operations: a completed read waits in the runtime's queue
 * of completed operations until the event loop hands it to its connection. The probe is more such
 * operations, one started every `PROBE_PERIOD_MS`: a sleep off this thread (a `nonblocking` FFI call,
 * transport/epoll_ffi.ts `sleepOffThread`) that ends `PROBE_PERIOD_MS` later; how late its promise
 * settles is how long a read that completed at that instant waited (a lower bound: a socket's readiness
 * may first wait for the runtime's reactor).
 *
 * Not one probe at a time: the runtime does not hand completions over in order. Under a saturating crowd
 * most reads cycle in a millisecond while some wait seconds (p50 1.4 ms, mean 41 ms, max 3.7 s at 3,000
 * connections), and a lone probe is now one, now the other: a run's intervals read 2 ms, then 700 ms.
 * So a probe starts every period whatever became of the last (timers still run on time there), and an
 * interval's wait is Little's law over them: the time its probes spent overdue (finished, not yet
 * handed over; those still overdue when it is taken count their time so far) over the probes started in
 * it (fewer when the timer that starts them is late, as the queue is longer then).
 *
 * Not a timer's lateness: timers run in a phase of their own every event-loop turn, and at 5,000
 * connections on one core measured 3-14 ms late while completions waited 50-680 ms and the run's mean
 * latency was 323 ms. Where FFI is not permitted (or not Linux) a timer's lateness is all there is, and
 * is what the probe measures then.
 *
 * Started by the meter's first take, so it runs only during a closed run; closed by `close`. One call
 * (or timer) per period, nothing per request. Summed for the worker's meter
 * (runner/stats/generator_meter.ts) in the shape every transport's probe gives (transport/ready_wait.ts).
 */
import { PROBE_PERIOD_MS, type ReadyWaitSum } from "./ready_wait.ts";
import { EpollSys, epollUnavailableReason } from "./epoll/ffi.ts";

/** Probes left unreached at most (a 10 s backlog): past it none starts until one is reached. */
const MAX_PENDING = 1000;

/** One worker's probes on the runtime's queue of completed operations. */
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
