/**
 * @module
 * The reads of one WebSocket connection through an `InlineConn` (epoll, io_uring, or Deno's sockets via
 * promise_inline.ts): one read armed at a time, kept armed between exchanges so a broadcast is timed as
 * it arrives, and a closed loop's next exchange started from the read callback. HOT PATH: no allocation
 * and no closure between socket, reads and connection.
 */
import type { NextExchange } from "../load_connection.ts";
import type { InlineConn, InlineReader } from "../transport/transport.ts";

/** What the reads drive: the connection itself, reached through no closure. */
export interface InlineHost {
  exchangeActive(): boolean;
  /** Between exchanges the connection keeps a read armed (it is open, and not a storm's). */
  listens(): boolean;
  /** Takes `n` bytes read into `buf` (null: the stream's end) at `nowMs`; true when the exchange is over. */
  consumeRead(buf: Uint8Array, n: number | null, nowMs: number): boolean;
  /** A failed read (counted by the connection, which closes). */
  failRead(err: unknown): void;
  /** Ends the exchange: the answers it counted. */
  endExchange(): number;
  /** The time of the exchange's last event (its answer), where the chain's next one starts. */
  readonly lastEventMs: number;
  /** Starts the chain's next exchange at `sentMs`, the answers so far carried into it. */
  chainNext(answered: number, sentMs: number): void;
}

/** The reads of one connection; the reader its socket calls back (no closure of its own). */
export class InlineReads implements InlineReader {
  #conn: InlineConn | null = null;
  /** A read is armed (its reader not yet called). */
  #armed = false;
  /** Resolves the exchange (or the chain of them); `#next` grants the chain's next. */
  #settle: ((n: number) => void) | null = null;
  #next: NextExchange | null = null;
  /** The buffer reads go into (`reset`), which `consumeRead` then reads. */
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
    this.#conn.armRead(this.buf, this);
  }

  onRead(n: number | null): boolean {
    this.#armed = false;
    const conn = this.#conn;
    const host = this.host;
    if (!host.exchangeActive()) {
      // Between exchanges: a broadcast is timed as it arrives, not at the connection's next send.
      if (conn !== null) host.consumeRead(this.buf, n, conn.nowMs());
      this.listen();
      return false;
    }
    if (conn === null) return this.end();
    if (!host.consumeRead(this.buf, n, conn.nowMs())) {
      this.arm();
      return false;
    }
    return this.end();
  }

  onReadError(err: unknown): boolean {
    this.#armed = false;
    this.host.failRead(err);
    return this.end();
  }

  /** The exchange ended: starts the chain's next send, or settles. True when it settled. */
  end(): boolean {
    const host = this.host;
    const done = host.endExchange();
    const next = this.#next;
    if (next !== null && this.#conn !== null && next(1, host.lastEventMs) > 0) {
      host.chainNext(done, host.lastEventMs);
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
    if (!this.host.exchangeActive() && this.host.listens()) this.arm();
  }
}
