/**
 * @module
 * The worker's script sessions in progress, told when their run ends by one listener on the run's signal
 * (and, for a script with `stop`, when its load's span ends). A listener each would cost every session a
 * closure; a list costs a slot, and a session keeps its place (`liveAt`) so it leaves in constant time.
 */

interface EndsWithRun {
  /** Its place in the live list, -1 when not in it. */
  liveAt: number;
  runEnded(): void;
  /** The load's span ended: its think time ends (a script with `stop` winds its users down). */
  runStopping(): void;
  waitingOnOwnCode(): boolean;
}

export class LiveSessions<S extends EndsWithRun> {
  readonly #live: S[] = [];
  readonly #watched = new WeakSet<AbortSignal>();

  add(s: S, ended: AbortSignal, stopping?: AbortSignal): void {
    this.#watch(ended, stopping);
    if (s.liveAt >= 0) return;
    s.liveAt = this.#live.length;
    this.#live.push(s);
  }

  delete(s: S): void {
    const at = s.liveAt;
    const live = this.#live;
    if (at < 0 || live[at] !== s) return;
    const last = live.pop()!;
    if (last !== s) {
      live[at] = last;
      last.liveAt = at;
    }
    s.liveAt = -1;
  }

  get size(): number {
    return this.#live.length;
  }

  /** Some session is in progress and every one waits on the script's own code: nothing will be sent. */
  allWaiting(): boolean {
    if (this.#live.length === 0) return false;
    for (const s of this.#live) if (!s.waitingOnOwnCode()) return false;
    return true;
  }

  /** The run's signals, and a connection's own end (a ramp-down's) for the sessions on it. */
  #watch(ended: AbortSignal, stopping?: AbortSignal): void {
    if (this.#watched.has(ended)) return;
    this.#watched.add(ended);
    ended.addEventListener("abort", () => {
      // A copy: each session told may leave the list (and another take its slot).
      for (const s of this.#live.slice()) s.runEnded();
    }, { once: true });
    if (stopping === undefined || this.#watched.has(stopping)) return;
    this.#watched.add(stopping);
    stopping.addEventListener("abort", () => {
      for (const s of this.#live.slice()) s.runStopping();
    }, { once: true });
  }
}
