/**
 * @module
 * A bound on a worker's connects in flight: without it one slow moment makes every late send of an open
 * model open its own connection, slowing the isolate further.
 */

/** Connects in flight per worker for the open models (and before t0 for every pre-connect). */
export const CONNECTS_IN_FLIGHT_PER_WORKER = 16;

export class ConnectGate {
  inFlight = 0;
  maxInFlight = 0;
  readonly #waiters: Array<() => void> = [];

  /** `bound`: connects at once; Infinity lets every connect start at once (the closed models). */
  constructor(readonly bound: number) {}

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
