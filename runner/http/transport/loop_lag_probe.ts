/**
 * @module
 * How long a ready response waits for a load worker on the deno transport, where a completed read waits in
 * the runtime's queue until the event loop hands it over. The probe is more such operations: an off-thread
 * sleep (`sleepOffThread`) started every `PROBE_PERIOD_MS`, whose lateness is a read's wait. Completions
 * are not handed over in order, so a probe starts every period whatever became of the last, and an
 * interval's wait is Little's law over them: time spent overdue over probes started. A timer's lateness
 * would miss it (3-14 ms late while completions waited 50-680 ms), but is all there is without FFI.
 * Runs only during a closed run; nothing per request.
 */
import { PROBE_PERIOD_MS, type ReadyWaitSum } from "./ready_wait.ts";
import { EpollSys, epollUnavailableReason } from "./epoll_ffi.ts";

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
