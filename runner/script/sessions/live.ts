/**
 * @module
 * The run-wide end listener of a worker's script sessions: the sessions in progress, each told when its
 * run ends (a stop request, the end of the graceful stop) by one listener on the run's signal for them
 * all. A listener each would cost every session a closure, and its removal a scan of thousands of
 * listeners; a list costs a slot, and a session keeps its place in it (`liveAt`), so it leaves in constant
 * time (the last one takes its slot) and a session started makes nothing (a set's entries are remade as
 * thousands come and go). It also says when every session waits on the script's own code, which a
 * count's idle rule reads.
 */

/** What a live session is told when its run ends, and what it says of its wait. */
export interface EndsWithRun {
  /** Its place in the live list, -1 when not in it (the list's to set). */
  liveAt: number;
  runEnded(): void;
  /** Waiting on the script's own code (no request in flight, no think time). */
  waitingOnOwnCode(): boolean;
}

/** The worker's sessions in progress, and the one listener that tells them their run ended. */
export class LiveSessions<S extends EndsWithRun> {
  readonly #live: S[] = [];
  #watched: AbortSignal | null = null;

  /** `s` is in progress in the run that `ended` ends (shared by the run's sessions). */
  add(s: S, ended: AbortSignal): void {
    this.#watch(ended);
    if (s.liveAt >= 0) return;
    s.liveAt = this.#live.length;
    this.#live.push(s);
  }

  /** `s` ended. */
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

  /** How many sessions are in progress. */
  get size(): number {
    return this.#live.length;
  }

  /** Some session is in progress and every one waits on the script's own code: nothing will be sent. */
  allWaiting(): boolean {
    if (this.#live.length === 0) return false;
    for (const s of this.#live) if (!s.waitingOnOwnCode()) return false;
    return true;
  }

  /** Listens once to the run's end for every live session. */
  #watch(ended: AbortSignal): void {
    if (this.#watched === ended) return;
    this.#watched = ended;
    ended.addEventListener("abort", () => {
      // A copy: each session told may leave the list (and another take its slot).
      for (const s of this.#live.slice()) s.runEnded();
    }, { once: true });
  }
}
