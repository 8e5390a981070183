/**
 * @module
 * Many waits on one timer (script sessions' `s.sleep`, WebSocket holds, think times): a heap by wake-up time,
 * an entry per sleeper, not a timer; one woken early leaves a stale entry, skipped in its turn.
 */

/** What sleeps: woken with the number its sleep was queued under; false when that sleep had ended. */
export interface Sleeper {
  wake(sleep: number): boolean;
}

const MAX_TIMER_MS = 2 ** 31 - 1;

export class SleepQueue {
  /** Wake-up times (`performance.now()` ms), heap-ordered; `#who` and `#sleep` move with them. */
  readonly #due: number[] = [];
  readonly #who: Sleeper[] = [];
  readonly #sleep: number[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined = undefined;
  #armedMs = Infinity;
  /** Sleeps queued and not yet woken, early or on time (the rest of the entries are stale). */
  #waiting = 0;
  readonly #onTimer = () => this.#fire();

  get size(): number {
    return this.#due.length;
  }

  add(who: Sleeper, sleep: number, dueMs: number): void {
    this.#waiting++;
    let k = this.#due.length;
    this.#due.push(dueMs);
    this.#who.push(who);
    this.#sleep.push(sleep);
    while (k > 0) {
      const parent = (k - 1) >> 1;
      if (this.#due[parent] <= dueMs) break;
      this.#move(parent, k);
      k = parent;
    }
    this.#put(k, dueMs, who, sleep);
    if (dueMs < this.#armedMs) this.#arm(dueMs);
  }

  #fire(): void {
    this.#armedMs = Infinity;
    this.#timer = undefined;
    const nowMs = performance.now();
    while (this.#due.length > 0 && this.#due[0] <= nowMs) {
      const who = this.#who[0];
      const sleep = this.#sleep[0];
      this.#popRoot();
      if (who.wake(sleep)) this.#waiting--;
    }
    if (this.#due.length > 0) this.#arm(this.#due[0]);
  }

  /** A queued sleep ended early (its entry stays, stale); with none left waiting, the queue empties. */
  forget(): void {
    if (--this.#waiting > 0) return;
    this.#waiting = 0;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#armedMs = Infinity;
    this.#due.length = this.#who.length = this.#sleep.length = 0;
  }

  #arm(dueMs: number): void {
    clearTimeout(this.#timer);
    this.#armedMs = dueMs;
    // A runtime timer holds at most 2^31-1 ms (longer fires after 1 ms): one that long is armed again.
    this.#timer = setTimeout(this.#onTimer, Math.min(MAX_TIMER_MS, Math.max(0, dueMs - performance.now())));
  }

  #popRoot(): void {
    const last = this.#due.length - 1;
    const dueMs = this.#due[last];
    const who = this.#who[last];
    const sleep = this.#sleep[last];
    this.#due.pop();
    this.#who.pop();
    this.#sleep.pop();
    if (last === 0) return;
    let k = 0;
    while (true) {
      let child = 2 * k + 1;
      if (child >= last) break;
      if (child + 1 < last && this.#due[child + 1] < this.#due[child]) child++;
      if (this.#due[child] >= dueMs) break;
      this.#move(child, k);
      k = child;
    }
    this.#put(k, dueMs, who, sleep);
  }

  #move(from: number, to: number): void {
    this.#put(to, this.#due[from], this.#who[from], this.#sleep[from]);
  }

  #put(k: number, dueMs: number, who: Sleeper, sleep: number): void {
    this.#due[k] = dueMs;
    this.#who[k] = who;
    this.#sleep[k] = sleep;
  }
}
