/**
 * @module
 * The reads of one WebSocket connection (connection.ts) through a socket that calls back with the bytes it
 * read (`InlineConn`, transport/transport.ts: epoll's and io_uring's, and Deno's sockets through
 * transport/promise_inline.ts): one read armed at a time into the buffer the connection names (the
 * worker's shared one on epoll and io_uring, its own through promise_inline.ts); kept armed between
 * exchanges, so a broadcast is timed as it arrives, not at the next send; and a closed loop's chain of
 * exchanges started from the read callback, so a message costs no promise of its own. HOT PATH: a read goes to the connection's `consume`, then a read is armed again or the
 * exchange ends and the chain's next one begins; nothing is allocated.
 */
import type { NextExchange } from "../load_connection.ts";
import type { InlineConn, InlineReader } from "../transport/transport.ts";

/** What the reads drive of their connection: made once per connection (connection.ts). */
export interface InlineHost {
  /** An exchange is in progress. */
  active(): boolean;
  /** Between exchanges the connection keeps a read armed (it is open, and not a storm's). */
  listens(): boolean;
  /** Takes `n` bytes read (null: the stream's end) at `nowMs`; true when the exchange is over. */
  consume(n: number | null, nowMs: number): boolean;
  /** A failed read (counted by the connection, which closes). */
  fail(err: unknown): void;
  /** Ends the exchange: the answers it counted. */
  end(): number;
  /** The time of the exchange's last event (its answer), where the chain's next one starts. */
  lastEventMs(): number;
  /** Starts the chain's next exchange at `sentMs`, the answers so far carried into it. */
  chain(answered: number, sentMs: number): void;
}

export class InlineReads {
  #conn: InlineConn | null = null;
  /** A read is armed (its reader not yet called). */
  #armed = false;
  /** Resolves the exchange (or the chain of them); `#next` grants the chain's next. */
  #settle: ((n: number) => void) | null = null;
  #next: NextExchange | null = null;
  readonly #reader: InlineReader = {
    onRead: (n) => this.#onRead(n),
    onReadError: (err) => {
      this.#armed = false;
      this.host.fail(err);
      return this.end();
    },
  };

  /** The buffer reads go into (`reset`), which `consume` then reads. */
  buf: Uint8Array;

  constructor(buf: Uint8Array, readonly host: InlineHost) {
    this.buf = buf;
  }

  /** The socket read from (Deno's sockets through transport/promise_inline.ts), or null: none. */
  get conn(): InlineConn | null {
    return this.#conn;
  }

  /** A new socket (or none), read into `buf`: nothing armed on it yet. */
  reset(conn: InlineConn | null, buf = this.buf): void {
    this.#conn = conn;
    this.buf = buf;
    this.#armed = false;
  }

  /** An exchange starts: `settle` resolves it (or its chain), `next` grants the chain's next. */
  start(settle: (n: number) => void, next: NextExchange | null): void {
    this.#settle = settle;
    this.#next = next;
  }

  /** Arms one read, unless one is armed already (a read is armed at most once at a time). */
  arm(): void {
    if (this.#armed || this.#conn === null) return;
    this.#armed = true;
    this.#conn.armRead(this.buf, this.#reader);
  }

  #onRead(n: number | null): boolean {
    this.#armed = false;
    const conn = this.#conn;
    const host = this.host;
    if (!host.active()) {
      // Between exchanges: a broadcast is read as it arrives, so its fan-out is timed then, not at the
      // connection's next send (seconds later for a room member that sends once every few seconds).
      if (conn !== null) host.consume(n, conn.nowMs());
      this.listen();
      return false;
    }
    if (conn === null) return this.end();
    if (!host.consume(n, conn.nowMs())) {
      this.arm();
      return false;
    }
    return this.end();
  }

  /** The exchange ended: starts the chain's next send, or settles. True when it settled. */
  end(): boolean {
    const host = this.host;
    const done = host.end();
    const next = this.#next;
    if (next !== null && this.#conn !== null && next(1, host.lastEventMs()) > 0) {
      host.chain(done, host.lastEventMs());
      return false;
    }
    const settle = this.#settle;
    this.#settle = this.#next = null;
    settle?.(done);
    this.listen();
    return true;
  }

  /** Keeps a read armed between exchanges, so what the server sends meanwhile is taken as it comes. */
  listen(): void {
    if (!this.host.active() && this.host.listens()) this.arm();
  }
}
