/**
 * @module
 * How the stream protocols (h2, h3) group their load connections: each is one stream slot, `streams` of
 * them to a connection, made as the executors ask for connections.
 */

/** A connection that carries slots: how many streams it had open at once, and its GOAWAY partner's. */
interface SlotHost {
  readonly maxOpenStreams: number;
  readonly partner?: { readonly maxOpenStreams: number } | null;
}

export class StreamSlots<C extends SlotHost, S> {
  #session: C | null = null;
  #inSession = 0;
  #sessions = 0;
  readonly sessions: C[] = [];

  /** `open` makes the connection of id `idBase + k`; `slotOn` makes slot `id` on a connection. */
  constructor(
    readonly streams: number,
    readonly idBase: number,
    readonly spread: number,
    readonly open: (id: number) => C,
    readonly slotOn: (id: number, session: C) => S,
  ) {}

  /**
   * The next slot: on the current connection while it has fewer than `streams`, else on a new one; with a
   * `spread`, on the next of that many connections in turn.
   */
  next(id: number): S {
    if (this.spread > 0) {
      const k = this.#inSession++ % this.spread;
      const session = this.sessions[k] ??= this.open(this.idBase + this.#sessions++);
      return this.slotOn(id, session);
    }
    if (this.#session === null || this.#inSession === this.streams) {
      this.#session = this.open(this.idBase + this.#sessions++);
      this.sessions.push(this.#session);
      this.#inSession = 0;
    }
    this.#inSession++;
    return this.slotOn(id, this.#session);
  }

  /** Most streams open at once on any one connection so far. */
  get maxOpenStreams(): number {
    let most = 0;
    for (const s of this.sessions) most = Math.max(most, s.maxOpenStreams, s.partner?.maxOpenStreams ?? 0);
    return most;
  }
}
