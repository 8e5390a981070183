/**
 * @module
 * HTTP/2 with `connection: per-arrival`: each arrival dials its own h2 connection, sends on stream 1 and,
 * once answered, ends with GOAWAY and a close. A lane is an `H2Slot` given a new `H2Connection` each time.
 */
import { GOAWAY_BYTES, NO_ERROR, writeGoaway } from "../../../http2/frames.ts";
import type { ConnectionShared } from "../load_connection.ts";
import { H2Slot } from "./slot.ts";
import { H2Connection } from "./connection.ts";
import type { H2Run } from "./stream.ts";

/** A worker's per-arrival h2 lanes, made as the executors ask for connections (as `StreamSlots` are). */
export class H2Arrivals {
  /** Most streams open at once on one connection so far: 1 once any arrival was sent. */
  maxOpenStreams = 0;

  constructor(readonly shared: ConnectionShared, readonly run: H2Run) {}

  next(id: number): H2ArrivalConnection {
    return new H2ArrivalConnection(id, this);
  }
}

/** One lane of per-arrival h2 connections: at most one at a time, made by `exchange`, ended by `release`. */
class H2ArrivalConnection extends H2Slot {
  /** The arrival's connection ended (`release`, or a close at shutdown): the next arrival dials a new one. */
  #ended = false;

  constructor(id: number, readonly owner: H2Arrivals) {
    super(id, new H2Connection(id, owner.shared, owner.run), owner.run);
  }

  /** A new connection for the next arrival (pre-connect never asks: per-arrival opens nothing ahead). */
  override open(endpoint?: number): Promise<boolean> {
    this.#renew();
    return super.open(endpoint);
  }

  /** The arrival's request on stream 1 of its own connection, dialed first; a flow's steps go on 3, 5, ... */
  override exchange(intendedMs: number): Promise<number> {
    this.#renew();
    return super.exchange(intendedMs);
  }

  #renew(): void {
    if (!this.#ended) return;
    this.#ended = false;
    this.rehome(new H2Connection(this.id, this.owner.shared, this.owner.run));
  }

  /** The arrival is answered: GOAWAY (NO_ERROR, last stream 0) then the close (RFC 9113 6.8). */
  override release(): void {
    if (this.#ended) return;
    const output = this.session.output;
    if (this.session.isOpen) {
      output.wrote(writeGoaway(output.bytes, output.reserve(GOAWAY_BYTES), 0, NO_ERROR));
      output.flush();
    }
    this.#end();
    super.release();
  }

  /** Shutdown closes the connection (streams counted unless stopping); a timeout cancels the stream. */
  override abort(): void {
    if (this.#ended) return;
    super.abort();
    if (!this.timedOut) this.#end();
  }

  #end(): void {
    this.deadlineMs = Infinity;
    const streams = this.session.maxOpenStreams;
    if (streams > this.owner.maxOpenStreams) this.owner.maxOpenStreams = streams;
    this.#ended = true;
  }
}
