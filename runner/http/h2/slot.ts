/**
 * @module
 * HTTP/2 for the executors: each stream an h2 connection may carry is an `H2Slot`, a `LoadConnection`,
 * `streams` to a connection. The watchdog cancels one stream (RST_STREAM), not the connection.
 */
import type { ConnectionShared, NextExchange, StepConnection, StepRequest } from "../load_connection.ts";
import type { EncodedRequest, RequestMix } from "../request.ts";
import { bytesRoughly, responseTimeoutMessage } from "../exchange_errors.ts";
import type { H2Connection } from "./connection.ts";
import type { StreamTable } from "./stream_table.ts";
import type { H2Request } from "./request.ts";
import type { H2Run, H2Stream } from "./stream.ts";
import { H2TemplateWriter } from "./template.ts";
import { fillLane } from "../template.ts";
import { H2KeptResponse } from "./kept.ts";
import { DEFAULT_KEPT_BYTES } from "../kept_bytes.ts";
import { GOAWAY_BYTES, NO_ERROR, writeGoaway } from "../../../http2/frames.ts";
import type { StreamAnswer } from "../stream_answer.ts";

const NO_VALUES: Uint8Array[] = [];
/** `Cookie: ` before the jar's line's value (HTTP/1.1 header form), and `\r\n` after it. */
const COOKIE_PREFIX_BYTES = 8;

export class H2Slot implements StepConnection, H2Stream {
  deadlineMs = Infinity;
  timedOut = false;
  /** The timeout of the exchange in flight: the run's, or a script's request's own (its failure names it). */
  exchangeTimeoutMs = 0;
  lastEventMs = 0;
  readonly maxDepth = 1;
  // H2Stream: the request in flight (stream_table.ts fills the stream fields).
  streamId = 0;
  request: H2Request | null = null;
  bodyOffset = 0;
  pauseAt = 0;
  sendWindow = 0;
  recvUnacked = 0;
  status = 0;
  endpoint = 0;
  contentRemaining = -1;
  receivedBytes = 0;
  intendedMs = 0;
  sentMs = 0;
  kept: H2KeptResponse | null = null;
  /** The judge of the answer beyond HTTP: the run's (gRPC runs), or a step's own while it runs. */
  answer: StreamAnswer | null;
  answered = false;
  refused = false;
  resends = 0;
  #active = false;
  /** A flow step's request, its session's values and cookie (exchangeStep), or null: the mix's next. */
  #step: H2Request | null = null;
  #stepValues: ReadonlyArray<Uint8Array> = NO_VALUES;
  #cookie: Uint8Array | null = null;
  #keptStore: H2KeptResponse | null = null;
  /** The run's judge of answers (gRPC runs), or null: what `answer` is between steps. */
  readonly #runAnswer: StreamAnswer | null;
  #settle: ((done: number) => void) | null = null;
  #next: NextExchange | null = null;
  readonly #mix: RequestMix;
  readonly #requests: readonly H2Request[];
  #streams: StreamTable;
  /** `$worker()`: this lane and its first connection. */
  readonly #lane: Uint8Array;

  readonly writer = new H2TemplateWriter();

  constructor(readonly id: number, public session: H2Connection, run: H2Run) {
    this.#mix = session.shared.mix;
    this.#requests = run.requests;
    this.#streams = session.streams;
    this.answer = this.#runAnswer = run.answer?.() ?? null;
    this.#lane = new TextEncoder().encode(`g${id}c${session.id}`);
  }

  get isOpen(): boolean {
    return this.session.isOpen;
  }

  get shared(): ConnectionShared {
    return this.session.shared;
  }

  /** Opens the slot's connection (shared with its sibling slots); the connect is timed by the session. */
  open(endpoint?: number): Promise<boolean> {
    return this.session.open(endpoint);
  }

  /** One request on a stream from `intendedMs` (negative: now); `next` (a closed loop's) chains more. */
  async exchange(
    intendedMs: number,
    _depth = 1,
    _request: EncodedRequest | null = null,
    next: NextExchange | null = null,
  ): Promise<number> {
    if (this.session.handedOver) this.rehome();
    const opensFor = this.#step?.endpoint, startMs = performance.now();
    if (!this.session.isOpen && !(await this.session.open(opensFor))) {
      const failed = await this.session.failFast(opensFor ?? this.endpoint, startMs);
      // The loop takes its next call by this time: a stale one would run it past the stop.
      this.lastEventMs = performance.now();
      return failed;
    }
    return new Promise((resolve) => {
      this.#settle = resolve;
      this.#next = next;
      if (!this.#begin(intendedMs, performance.now())) {
        this.#settle = this.#next = null;
        resolve(0);
      }
    });
  }

  /** A flow step: `request` filled with the session's `values` and `cookie`; 1 if answered, else 0. */
  async exchangeStep(
    intendedMs: number,
    request: H2Request,
    values: ReadonlyArray<Uint8Array>,
    cookie: Uint8Array | null,
    keep: number,
    keptLimit = DEFAULT_KEPT_BYTES,
    answer: StreamAnswer | null = this.#runAnswer,
  ): Promise<number> {
    this.answer = answer;
    this.#step = request;
    this.#stepValues = values;
    this.#cookie = cookie;
    if (keep !== 0) {
      this.kept = this.#keptStore ??= new H2KeptResponse();
      this.kept.reset(keep > 1, keptLimit);
    }
    this.answered = false;
    try {
      return (await this.exchange(intendedMs)) > 0 && this.answered ? 1 : 0;
    } finally {
      this.answer = this.#runAnswer;
      this.#step = this.kept = this.#cookie = null;
      this.#stepValues = NO_VALUES;
    }
  }

  sendStep(
    sendMs: number,
    step: StepRequest,
    values: ReadonlyArray<Uint8Array>,
    cookieLine: Uint8Array | null,
  ): Promise<number> {
    return this.exchangeStep(
      sendMs,
      step.h2!,
      values,
      cookieLine === null ? null : cookieLine.subarray(COOKIE_PREFIX_BYTES, cookieLine.length - 2),
      step.keep,
      step.maxKeptBytes,
    );
  }

  keptResponse(): H2KeptResponse {
    return this.#keptStore ??= new H2KeptResponse();
  }

  /** Nothing of a session outlives its steps here (`exchangeStep` forgets it after each). */
  endSession(): void {}

  #begin(intendedMs: number, nowMs: number): boolean {
    const shared = this.session.shared;
    const step = this.#step;
    const request = step ?? this.#requests[this.#mix.next()];
    this.endpoint = request.endpoint ?? 0;
    if (request.template === null) this.request = request;
    else {
      // Without a data source a template has only built-in functions to fill (`$randomNumber`).
      const rows = shared.rows ?? null;
      const row = step !== null ? this.#stepValues : rows === null ? NO_VALUES : rows.next();
      if (row === null) return false;
      fillLane.id = this.#lane;
      fillLane.uuidDrawn = false;
      const filled = this.writer.fill(request.template, row, step !== null ? this.#cookie : null);
      if (filled === null) {
        // A refused value (a line break, an edge space, a message over the send cap): counted, unsent.
        shared.recorder.recordError(nowMs, this.writer.refusedKind, this.writer.refused, this.endpoint);
        return false;
      }
      this.request = filled;
    }
    this.lastEventMs = nowMs;
    this.intendedMs = intendedMs < 0 ? nowMs : intendedMs;
    this.sentMs = nowMs;
    this.deadlineMs = nowMs + shared.timeoutMs;
    this.exchangeTimeoutMs = shared.timeoutMs;
    this.timedOut = false;
    this.receivedBytes = 0;
    this.resends = 0;
    this.#active = true;
    shared.recorder.inFlight++;
    const rehomed = this.session.handedOver;
    if (rehomed) this.rehome();
    this.#streams.send(this);
    if (rehomed) this.session.wake();
    return true;
  }

  /** The slot's streams go on `to`: its connection's partner after a GOAWAY, or a lane's next connection. */
  rehome(to = this.session.partner!): void {
    this.session = to;
    this.#streams = to.streams;
  }

  /** H2Stream: the request ended; the chain's next one starts here, or the exchange settles. */
  ended(nowMs: number, counted: boolean): void {
    if (!this.#active) return;
    this.#active = false;
    this.deadlineMs = Infinity;
    this.lastEventMs = nowMs;
    this.session.shared.recorder.inFlight--;
    const next = this.#next;
    if (next !== null && counted && this.session.isOpen && !this.session.shared.stopping) {
      if (next(1, nowMs) > 0 && this.#begin(-1, nowMs)) return;
    }
    const settle = this.#settle;
    this.#settle = this.#next = null;
    settle?.(counted ? 1 : 0);
  }

  /** The watchdog's timeout cancels the stream, the connection goes on; any other abort closes it. */
  abort(): void {
    if (this.timedOut && this.#active) this.#streams.cancel(this, this.#timeoutMessage());
    else this.session.close();
  }

  /**
   * Ends the slot's connection (an arrival of its own answered, a loop ramped down): GOAWAY (NO_ERROR, last
   * stream 0), then the close (RFC 9113 6.8). The next exchange dials anew, and that is no reconnect.
   */
  release(): void {
    const { session } = this, output = session.output;
    if (session.isOpen) {
      output.wrote(writeGoaway(output.bytes, output.reserve(GOAWAY_BYTES), 0, NO_ERROR));
      output.flush();
    }
    session.close();
    session.forgetOpened();
  }

  /** Why the timeout came: the stream never opened, or how much of its response had come. */
  #timeoutMessage(): string {
    const session = this.session;
    const timeoutMs = this.exchangeTimeoutMs;
    const streams = this.#streams;
    if (streams.pending.includes(this)) {
      const limit = session.peer.maxConcurrentStreams;
      const why = !session.isOpen
        ? "its connection was being opened again"
        : !session.gotSettings
        ? "the server sent no SETTINGS (streams wait for them)"
        : limit === 0
        ? "the server allows no streams (SETTINGS_MAX_CONCURRENT_STREAMS 0)"
        : streams.goingAway
        ? "its connection was going away (GOAWAY)"
        : `never sent: every stream the server allows was busy (SETTINGS_MAX_CONCURRENT_STREAMS ${limit})`;
      return `no response within ${timeoutMs} ms: ${why}`;
    }
    if (this.status === 0) return responseTimeoutMessage(timeoutMs, null);
    const body = this.receivedBytes === 0 ? "no body" : `${bytesRoughly(this.receivedBytes)} of its body`;
    return `no complete response within ${timeoutMs} ms: its head and ${body} had arrived`;
  }

  countUnfinished(nowMs: number): void {
    if (!this.#active) return;
    this.session.shared.recorder.unfinished(nowMs, 1);
    this.session.shared.log?.unanswered(this.intendedMs, this.sentMs, nowMs, this.session.id);
    this.#streams.cancelQuietly(this);
    this.ended(nowMs, true);
  }
}
