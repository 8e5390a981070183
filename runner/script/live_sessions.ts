/**
 * @module
 * The run-wide end listener of a worker's script sessions: the sessions in progress, each told when its
 * run ends (a stop request, the end of the graceful stop) by one listener on the run's signal for them
 * all. A listener each would cost every session a closure, and its removal a scan of thousands of
 * listeners; a set costs an entry, removed in constant time when the session ends. It also says when
 * every session waits on the script's own code, which a count's idle rule reads.
 */

/** What a live session is told when its run ends, and what it says of its wait. */
export interface EndsWithRun {
  runEnded(): void;
  /** Waiting on the script's own code (no request in flight, no think time). */
  waitingOnOwnCode(): boolean;
}

/** The worker's sessions in progress, and the one listener that tells them their run ended. */
export class LiveSessions<S extends EndsWithRun> {
  readonly #live = new Set<S>();
  #watched: AbortSignal | null = null;

  /** `s` is in progress in the run that `ended` ends (shared by the run's sessions). */
  add(s: S, ended: AbortSignal): void {
    this.#watch(ended);
    this.#live.add(s);
  }

  /** `s` ended. */
  delete(s: S): void {
    this.#live.delete(s);
  }

  /** How many sessions are in progress. */
  get size(): number {
    return this.#live.size;
  }

  /** Some session is in progress and every one waits on the script's own code: nothing will be sent. */
  allWaiting(): boolean {
    if (this.#live.size === 0) return false;
    for (const s of this.#live) if (!s.waitingOnOwnCode()) return false;
    return true;
  }

  /** Listens once to the run's end for every live session. */
  #watch(ended: AbortSignal): void {
    if (this.#watched === ended) return;
    this.#watched = ended;
    ended.addEventListener("abort", () => {
      for (const s of this.#live) s.runEnded();
    }, { once: true });
  }
}
