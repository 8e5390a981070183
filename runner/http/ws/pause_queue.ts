/**
 * @module
 * The idle waits of a worker's WebSocket connections on one timer: waits of one length end in the order they
 * began, so each length keeps a FIFO and the timer is armed for the earliest head. No allocation per wait.
 */

/** What waits: its due time while it waits (NaN once ended), and what to do at the end. */
export interface PauseWaiter {
  pauseDueMs: number;
  pauseEnded(): void;
}

/** What a queue slot holds once its wait ended: the waiter is let go. */
const DONE: PauseWaiter = { pauseDueMs: NaN, pauseEnded() {} };

/** One length's due times in a ring that only grows, so a crowd's waits make no garbage. */
class Fifo {
  dueMs = new Float64Array(64);
  waiters: PauseWaiter[] = new Array(64).fill(DONE);
  head = 0;
  size = 0;

  push(dueMs: number, waiter: PauseWaiter): void {
    if (this.size === this.dueMs.length) this.#grow();
    const at = (this.head + this.size) & (this.dueMs.length - 1);
    this.dueMs[at] = dueMs;
    this.waiters[at] = waiter;
    this.size++;
  }

  /** The head's waiter, its slot let go. */
  shift(): PauseWaiter {
    const waiter = this.waiters[this.head];
    this.waiters[this.head] = DONE;
    this.head = (this.head + 1) & (this.dueMs.length - 1);
    this.size--;
    return waiter;
  }

  /** Twice the room (a power of two), the waits laid out from 0 in order. */
  #grow(): void {
    const n = this.dueMs.length;
    const dueMs = new Float64Array(2 * n);
    const waiters: PauseWaiter[] = new Array(2 * n).fill(DONE);
    for (let i = 0; i < n; i++) {
      const from = (this.head + i) & (n - 1);
      dueMs[i] = this.dueMs[from];
      waiters[i] = this.waiters[from];
    }
    this.dueMs = dueMs;
    this.waiters = waiters;
    this.head = 0;
  }
}

export class PauseQueue {
  readonly #fifos = new Map<number, Fifo>();
  /** The same queues in a plain array, scanned for the earliest with no iterator made per wait. */
  readonly #fifoList: Fifo[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined = undefined;
  #armedMs = Infinity;
  readonly #fire = () => this.#due();

  /** `waiter` waits `ms` from now; its `pauseDueMs` is set, and `pauseEnded` is called at the end. */
  add(ms: number, waiter: PauseWaiter): void {
    const dueMs = performance.now() + ms;
    waiter.pauseDueMs = dueMs;
    let fifo = this.#fifos.get(ms);
    if (fifo === undefined) {
      this.#fifos.set(ms, fifo = new Fifo());
      this.#fifoList.push(fifo);
    }
    fifo.push(dueMs, waiter);
    if (dueMs < this.#armedMs) this.#arm(dueMs);
  }

  /** Waits pending (ended ones still queued included): for tests. */
  get queued(): number {
    let n = 0;
    for (const fifo of this.#fifoList) n += fifo.size;
    return n;
  }

  #arm(dueMs: number): void {
    clearTimeout(this.#timer);
    this.#armedMs = dueMs;
    this.#timer = setTimeout(this.#fire, Math.max(0, dueMs - performance.now()));
  }

  /** Ends every wait that is due, earliest first across lengths, then arms the timer for the next one. */
  #due(): void {
    this.#armedMs = Infinity;
    this.#timer = undefined;
    const nowMs = performance.now();
    let fifo: Fifo | null;
    while ((fifo = this.#earliest()) !== null && fifo.dueMs[fifo.head] <= nowMs) {
      const dueMs = fifo.dueMs[fifo.head];
      const waiter = fifo.shift();
      if (waiter.pauseDueMs === dueMs) {
        waiter.pauseDueMs = NaN;
        waiter.pauseEnded();
      }
    }
    // A wait added by a `pauseEnded` above armed the timer already, unless one is due sooner.
    if (fifo !== null && fifo.dueMs[fifo.head] < this.#armedMs) this.#arm(fifo.dueMs[fifo.head]);
  }

  /** The length whose next wait is due first, or null when none waits (a few lengths: a short scan). */
  #earliest(): Fifo | null {
    const list = this.#fifoList;
    let first: Fifo | null = null;
    for (let i = 0; i < list.length; i++) {
      const fifo = list[i];
      if (fifo.size > 0 && (first === null || fifo.dueMs[fifo.head] < first.dueMs[first.head])) first = fifo;
    }
    return first;
  }
}
