/**
 * @module
 * HTTP/2 for the executors: every stream an h2 connection may carry is a `H2Slot` with the shape of an
 * HTTP/1.1 `Connection` (load_connection.ts `LoadConnection`), so the four load models, the watchdog and the
 * graceful stop run unchanged. A worker's slots are grouped `streams` to a connection (`H2Slots`): the
 * closed model runs `connections x streams` loops (h2load's `-c` and `-m`), and the open models' lanes
 * open slot after slot, so an arrival that finds every stream busy takes the next slot, which is a new
 * connection once the current one has `streams` of them, as a new lane opens a connection over
 * HTTP/1.1. Latency counts from each request's intended send time, whatever it waited for. A closed
 * loop's next request starts from the end of the previous one inside the frame handler (`next`), with
 * no promise per request, on either transport. The watchdog's timeout cancels one stream
 * (RST_STREAM), not the connection. A templated request of the mix takes the next data row (the
 * worker's feeder, as over HTTP/1.1) and is filled into the slot's own buffers (h2_template.ts); when
 * no row is left nothing is sent.
 */
import type { ConnectionShared, LoadConnection, NextExchange } from "./load_connection.ts";
import type { EncodedRequest, RequestMix } from "./request.ts";
import { responseTimeoutMessage } from "./exchange_errors.ts";
import { H2Connection } from "./h2_frames_in.ts";
import type { H2Request } from "./h2_request.ts";
import type { H2Run, H2Stream } from "./h2_stream.ts";
import { H2TemplateWriter } from "./h2_template.ts";

/** One stream's worth of an h2 connection, driven like a connection by the executors. */
export class H2Slot implements LoadConnection, H2Stream {
  deadlineMs = Infinity;
  timedOut = false;
  lastEventMs = 0;
  readonly maxDepth = 1;
  // H2Stream: the request in flight (h2_session.ts fills the stream fields).
  streamId = 0;
  request: H2Request | null = null;
  bodyOffset = 0;
  sendWindow = 0;
  recvUnacked = 0;
  status = 0;
  intendedMs = 0;
  sentMs = 0;
  #active = false;
  #settle: ((done: number) => void) | null = null;
  #next: NextExchange | null = null;
  readonly #mix: RequestMix;
  readonly #requests: readonly H2Request[];

  /** `writer`: where templated requests are filled (a per-arrival lane passes its own, kept across arrivals). */
  constructor(
    readonly id: number,
    readonly session: H2Connection,
    run: H2Run,
    readonly writer = new H2TemplateWriter(),
  ) {
    this.#mix = session.shared.mix;
    this.#requests = run.requests;
  }

  get isOpen(): boolean {
    return this.session.isOpen;
  }

  get shared(): ConnectionShared {
    return this.session.shared;
  }

  /** Opens the slot's connection (shared with its sibling slots); the connect is timed by the session. */
  open(): Promise<boolean> {
    return this.session.open();
  }

  /**
   * One request on a stream of this slot's connection, from `intendedMs` (negative: now). `next` (a
   * closed loop's `take`): each time the request ends with the connection open, the next one starts
   * from there; the promise resolves once `next` grants none (or no data row is left). Flow steps
   * (`request`) are HTTP/1.1 only.
   */
  async exchange(
    intendedMs: number,
    _depth = 1,
    _request: EncodedRequest | null = null,
    next: NextExchange | null = null,
  ): Promise<number> {
    if (!this.session.isOpen && !(await this.session.open())) return 0;
    return new Promise((resolve) => {
      this.#settle = resolve;
      this.#next = next;
      if (!this.#begin(intendedMs, performance.now())) {
        this.#settle = this.#next = null;
        resolve(0);
      }
    });
  }

  /** Starts the mix's next request; false when it is templated and no data row is left (nothing sent). */
  #begin(intendedMs: number, nowMs: number): boolean {
    const shared = this.session.shared;
    const request = this.#requests[this.#mix.next()];
    if (request.template === null) this.request = request;
    else {
      const row = shared.rows?.next() ?? null;
      if (row === null) return false;
      this.request = this.writer.fill(request.template, row);
    }
    this.lastEventMs = nowMs;
    this.intendedMs = intendedMs < 0 ? nowMs : intendedMs;
    this.sentMs = nowMs;
    this.deadlineMs = nowMs + shared.timeoutMs;
    this.timedOut = false;
    this.#active = true;
    shared.recorder.inFlight++;
    this.session.send(this);
    return true;
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

  /**
   * The watchdog's timeout (`timedOut` set): the stream is cancelled and counted, the connection goes
   * on; a connect past it is aborted. Otherwise (shutdown, `release`): the whole connection closes.
   */
  abort(): void {
    if (this.timedOut) {
      if (this.#active) {
        this.session.cancel(this, responseTimeoutMessage(this.session.shared.timeoutMs, null));
      } else this.session.abortConnect();
      return;
    }
    this.session.close();
  }

  release(): void {
    this.session.close();
  }

  waitedMs(nowMs: number): number {
    return this.#active ? nowMs - this.sentMs : -1;
  }

  countUnfinished(nowMs: number, message: string): void {
    if (!this.#active) return;
    this.session.shared.recorder.recordError(nowMs, "unfinished", message);
    this.session.cancelQuietly(this);
    this.ended(nowMs, true);
  }
}

/** A worker's slots, `streams` to a connection, made as the executors ask for connections. */
export class H2Slots {
  #session: H2Connection | null = null;
  #inSession = 0;
  #sessions = 0;
  readonly sessions: H2Connection[] = [];

  constructor(
    readonly shared: ConnectionShared,
    readonly run: H2Run,
    readonly streams: number,
    readonly idBase: number,
  ) {}

  /** The next slot: on the current connection while it has fewer than `streams`, else on a new one. */
  next(id: number): H2Slot {
    if (this.#session === null || this.#inSession === this.streams) {
      this.#session = new H2Connection(this.idBase + this.#sessions++, this.shared, this.run);
      this.sessions.push(this.#session);
      this.#inSession = 0;
    }
    this.#inSession++;
    return new H2Slot(id, this.#session, this.run);
  }

  /** Most streams open at once on any one connection so far. */
  get maxOpenStreams(): number {
    let most = 0;
    for (const s of this.sessions) most = Math.max(most, s.maxOpenStreams);
    return most;
  }
}
