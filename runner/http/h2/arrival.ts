/**
 * @module
 * HTTP/2 with `connection: per-arrival`: each arrival dials an h2 connection of its own, sends its request
 * on stream 1 and, once answered, ends with GOAWAY and a close. A lane (`H2ArrivalConnection`) gives each
 * arrival a fresh `H2Connection` and `H2Slot`, so it is counted by the same code as a kept-alive one, and
 * never as a reconnect.
 */
import { GOAWAY_BYTES, NO_ERROR, writeGoaway } from "../../../http2/frames.ts";
import type { ConnectionShared, NextExchange, StepConnection, StepRequest } from "../load_connection.ts";
import { H2Slot } from "./slot.ts";
import { H2Connection } from "./connection.ts";
import type { EncodedRequest } from "../request.ts";
import type { H2Run } from "./stream.ts";
import type { H2Request } from "./request.ts";
import type { H2KeptResponse } from "./kept.ts";
import type { StreamAnswer } from "../stream_answer.ts";
import { H2TemplateWriter } from "./template.ts";

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
export class H2ArrivalConnection implements StepConnection {
  readonly maxDepth = 1;
  #slot: H2Slot | null = null;
  #lastEventMs = 0;
  #timedOut = false;
  /** Templated requests are filled here, one arrival after another (its buffers grow on first use). */
  readonly #writer = new H2TemplateWriter();

  constructor(readonly id: number, readonly owner: H2Arrivals) {}

  get isOpen(): boolean {
    return this.#slot?.isOpen ?? false;
  }

  /** The watchdog's deadline: the stream's in flight; a connect has its own timer (transport/dial.ts). */
  get deadlineMs(): number {
    return this.#slot?.deadlineMs ?? Infinity;
  }
  set deadlineMs(ms: number) {
    if (this.#slot !== null) this.#slot.deadlineMs = ms;
  }

  /** The exchange in flight's timeout (a script's request may set its own). */
  set exchangeTimeoutMs(ms: number) {
    if (this.#slot !== null) this.#slot.exchangeTimeoutMs = ms;
  }

  get timedOut(): boolean {
    return this.#slot?.timedOut ?? this.#timedOut;
  }
  set timedOut(yes: boolean) {
    this.#timedOut = yes;
    if (this.#slot !== null) this.#slot.timedOut = yes;
  }

  get lastEventMs(): number {
    return this.#slot?.lastEventMs ?? this.#lastEventMs;
  }
  set lastEventMs(ms: number) {
    this.#lastEventMs = ms;
    if (this.#slot !== null) this.#slot.lastEventMs = ms;
  }

  /** A new connection for the next arrival (pre-connect never asks: per-arrival opens nothing ahead). */
  open(): Promise<boolean> {
    return this.#current().open();
  }

  /** The arrival's request on stream 1 of its own connection, dialed first; `next` is not chained. */
  exchange(
    intendedMs: number,
    _depth = 1,
    _request: EncodedRequest | null = null,
    _next: NextExchange | null = null,
  ): Promise<number> {
    return this.#current().exchange(intendedMs, 1);
  }

  /** A flow step: a session's steps go as streams 1, 3, ... of the arrival's one connection. */
  exchangeStep(
    intendedMs: number,
    request: H2Request,
    values: ReadonlyArray<Uint8Array>,
    cookie: Uint8Array | null,
    keep: number,
    keptLimit: number,
    answer?: StreamAnswer | null,
  ): Promise<number> {
    return this.#current().exchangeStep(intendedMs, request, values, cookie, keep, keptLimit, answer);
  }

  sendStep(
    sendMs: number,
    step: StepRequest,
    values: ReadonlyArray<Uint8Array>,
    cookieLine: Uint8Array | null,
  ): Promise<number> {
    return this.#current().sendStep(sendMs, step, values, cookieLine);
  }

  keptResponse(): H2KeptResponse {
    return this.#current().keptResponse();
  }

  /** Nothing of a session outlives its steps here; `release` ends the arrival's connection. */
  endSession(): void {}

  #current(): H2Slot {
    if (this.#slot !== null) return this.#slot;
    const { shared, run } = this.owner;
    // The lane's id names the connection (request log), as an HTTP/1.1 per-arrival lane's does.
    const slot = new H2Slot(this.id, new H2Connection(this.id, shared, run), run, this.#writer);
    slot.lastEventMs = this.#lastEventMs;
    this.#slot = slot;
    return slot;
  }

  /** The arrival is answered: GOAWAY (NO_ERROR, last stream 0) then the close (RFC 9113 6.8). */
  release(): void {
    const slot = this.#slot;
    if (slot === null) return;
    const session = slot.session;
    if (session.isOpen) {
      const at = session.output.reserve(GOAWAY_BYTES);
      session.output.wrote(writeGoaway(session.output.bytes, at, 0, NO_ERROR));
      session.output.flush();
    }
    this.#end(slot);
    slot.release();
  }

  /** Shutdown closes the connection (streams counted unless stopping); a timeout cancels the stream. */
  abort(): void {
    const slot = this.#slot;
    if (slot === null) return;
    slot.abort();
    if (!slot.timedOut) this.#end(slot);
  }

  #end(slot: H2Slot): void {
    this.#lastEventMs = slot.lastEventMs;
    this.#timedOut = false;
    if (slot.session.maxOpenStreams > this.owner.maxOpenStreams) {
      this.owner.maxOpenStreams = slot.session.maxOpenStreams;
    }
    this.#slot = null;
  }

  countUnfinished(nowMs: number): void {
    this.#slot?.countUnfinished(nowMs);
  }
}
