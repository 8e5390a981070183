/**
 * @module
 * The idle waits of a worker's WebSocket connections (hold's wait before each ping, a storm's think time)
 * on one timer instead of a timer each: 20,000 holding connections would otherwise keep 20,000 runtime
 * timers. Waits of one length end in the order they began, so each length keeps a first-in first-out
 * queue (a handful of lengths per run: the ping interval, the think times), and the one timer is armed
 * for the earliest head. A wait ended early (`endPause`, the connection aborted) is skipped when its
 * turn comes: its waiter's `pauseDueMs` no longer matches. Nothing is allocated per wait once the
 * queues have grown to the crowd.
 */

/** What waits: its due time while it waits (NaN once ended), and what to do at the end. */
export interface PauseWaiter {
  pauseDueMs: number;
  pauseEnded(): void;
}

/** One length's waits, due times in the order they began (so in time order). */
class Fifo {
  dueMs: number[] = [];
  waiters: PauseWaiter[] = [];
  head = 0;

  get empty(): boolean {
    return this.head === this.dueMs.length;
  }

  push(dueMs: number, waiter: PauseWaiter): void {
    if (this.head > 1024 && this.head * 2 > this.dueMs.length) {
      // Moved down in place: no array of the ended ones is made (as `splice` would).
      const n = this.dueMs.length - this.head;
      this.dueMs.copyWithin(0, this.head);
      this.waiters.copyWithin(0, this.head);
      this.dueMs.length = this.waiters.length = n;
      this.head = 0;
    }
    this.dueMs.push(dueMs);
    this.waiters.push(waiter);
  }
}

export class PauseQueue {
  readonly #fifos = new Map<number, Fifo>();
  /** The same queues in a plain array, scanned for the earliest with no iterator made per wait. */
  readonly #fifoList: Fifo[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined = undefined;
  /** When the armed timer fires (Infinity: none armed). */
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
    for (const fifo of this.#fifoList) n += fifo.dueMs.length - fifo.head;
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
      const waiter = fifo.waiters[fifo.head];
      fifo.waiters[fifo.head++] = DONE;
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
      if (!fifo.empty && (first === null || fifo.dueMs[fifo.head] < first.dueMs[first.head])) first = fifo;
    }
    return first;
  }
}

/** What a queue slot holds once its wait ended: the waiter is let go. */
const DONE: PauseWaiter = { pauseDueMs: NaN, pauseEnded() {} };
