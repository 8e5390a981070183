/**
 * @module
 * What a transport's event loop keeps of its sockets: each by its token (a slot reused after close), and
 * the ready list of sockets with bytes no event will announce, served next round; two lists take turns.
 */

/** A socket the table holds: served from the ready list, closed with the loop. */
interface TableSocket {
  serveReady(): void;
  close(): void;
}

export class SocketTable<S extends TableSocket> {
  readonly slots: Array<S | null> = [];
  readonly #free: number[] = [];
  #ready: S[] = [];
  /** The other of the two ready lists: served from while new arrivals go to `#ready`. */
  #serving: S[] = [];

  /** Open sockets (for tests: zero after a run). */
  get open(): number {
    return this.slots.length - this.#free.length;
  }

  /** The token for the next socket: a freed slot, else a new one. */
  nextToken(): number {
    return this.#free.pop() ?? this.slots.length;
  }

  release(token: number): void {
    this.slots[token] = null;
    this.#free.push(token);
  }

  /** Onto the ready list (the socket adds itself once). */
  ready(sock: S): void {
    this.#ready.push(sock);
  }

  get readyCount(): number {
    return this.#ready.length;
  }

  /** Serves the ready list; sockets that queue themselves meanwhile wait for the next round. */
  serveReady(): void {
    if (this.#ready.length === 0) return;
    const ready = this.#ready;
    this.#ready = this.#serving;
    this.#serving = ready;
    try {
      for (let i = 0; i < ready.length; i++) ready[i].serveReady();
    } finally {
      ready.length = 0;
    }
  }

  closeAll(): void {
    for (const sock of this.slots) sock?.close();
  }
}
