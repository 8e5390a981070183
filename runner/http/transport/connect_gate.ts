/**
 * @module
 * A bound on connects in flight at once, per worker. The open model opens connections on demand;
 * without a bound one slow moment (a cold JIT, a GC pause, a busy core) makes every late send open
 * its own connection, each connect slows the isolate further, and a run meant for a server that
 * needs five connections ends with a thousand. A connect past the bound waits for a slot, which is
 * handed over directly when a connect ends, so `inFlight` never exceeds `bound`. `maxInFlight` is
 * the highest value seen, reported in results as `maxConnectsInFlight`.
 */

/** Connects in flight per worker for the open models (and before t0 for every pre-connect). */
export const CONNECTS_IN_FLIGHT_PER_WORKER = 16;

export class ConnectGate {
  inFlight = 0;
  maxInFlight = 0;
  readonly #waiters: Array<() => void> = [];

  /** `bound`: connects at once; Infinity lets every connect start at once (the closed models). */
  constructor(readonly bound: number) {}

  /** True when a connect could start now without waiting. */
  get hasRoom(): boolean {
    return this.inFlight < this.bound;
  }

  /** Takes a slot: undefined when one was free, else a promise resolved when one is handed over. */
  acquire(): Promise<void> | undefined {
    if (this.inFlight < this.bound) {
      this.inFlight++;
      if (this.inFlight > this.maxInFlight) this.maxInFlight = this.inFlight;
      return undefined;
    }
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Gives the slot back, or straight to the oldest waiter (inFlight stays as it is then). */
  release(): void {
    const next = this.#waiters.shift();
    if (next !== undefined) next();
    else this.inFlight--;
  }
}
