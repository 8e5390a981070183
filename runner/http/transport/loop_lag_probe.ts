/**
 * @module
 * How long a ready response waits for a load worker on the deno transport: an off-thread sleep started
 * every `PROBE_PERIOD_MS` queues with the reads, so its lateness is a read's wait. Completions come out of
 * order, so probes start every period and an interval's wait is Little's law over them. A timer's lateness
 * misses it (3-14 ms against 50-680 ms), but is all there is without FFI. Closed runs only.
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
