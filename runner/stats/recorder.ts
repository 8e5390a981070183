/**
 * @module
 * The worker-side recorder. HOT PATH: the per-event methods allocate nothing (reused `Counters` and
 * HdrHistograms); an event counts in its own timestamp's interval, so `drain`'s jitter never moves it.
 */

import type { ErrorKind } from "../../results/mod.ts";
import { clampUs, createHistogram, encodeHistogram, type Histogram } from "../../results/histogram.ts";
import { addCounters, type Counters, emptyCounters } from "../../results/interval_counts.ts";
import type { WsIntervalCounts } from "../../results/ws_totals.ts";
import { errorKindIndex, idleSample, type IntervalSample } from "./sample.ts";
import {
  type ExpectedStatuses,
  failedSlotsOf,
  MAX_MESSAGE_CHARS_PER_KIND,
  STATUS_SLOTS,
  statusSlotOf,
} from "../../results/schema/keys.ts";
import { EndpointRecorder } from "./endpoint_recorder.ts";
import { ErrorTally, takeStatusCodes, WsSampler } from "./tallies.ts";

const NO_COUNTERS: Readonly<Counters> = Object.freeze(emptyCounters());

/** Per status slot its verdict (`failedSlotsOf`) under the statuses this isolate's script expects. */
const FAILED_SLOTS = failedSlotsOf();
/** The statuses this isolate's script expects (`expectStatuses`); undefined: the default. */
export let expectedStatuses: ExpectedStatuses | undefined;

/** Counts statuses outside `expected` as failed in this isolate (a k6 script's response callback). */
export function expectStatuses(expected: ExpectedStatuses): void {
  expectedStatuses = expected;
  FAILED_SLOTS.set(failedSlotsOf(expected));
}

/** This isolate's bytes recorded so far (a k6 iteration's `data_sent` and `data_received` points). */
export const ioBytes = { written: 0, read: 0 };

interface RecorderOptions {
  intervalMs: number;
  /** `performance.now()` at the measured run's start (earlier is warm-up); Infinity until `setOrigin`. */
  originMs: number;
  uncorrected: boolean;
  /** Characters of distinct error messages kept per kind and interval; the rest count under "(other)". */
  maxMessageChars?: number;
  /** Endpoints of the run (runner/endpoint_table.ts); more than one are counted apart. Default 1. */
  endpoints?: number;
  /** Endpoints are named at run time (a session script's requests; see `endpointIndex`). */
  namedEndpoints?: boolean;
}

/** How far before t0 a send may be intended and still count as the run's (rounding, not backlog). */
const WARMUP_LINE_SLACK_MS = 1;

export class IntervalRecorder {
  inFlight = 0;
  connections = 0;

  readonly #intervalMs: number;
  #originMs: number;
  #loadEndMs = Infinity;
  #openIndex = -1;
  #openStartMs = Infinity;
  #openEndMs = -Infinity;
  #nextIndex = 0;
  #pending: IntervalSample[] = [];

  readonly #c: Counters = emptyCounters();
  readonly #statusCounts = new Uint32Array(STATUS_SLOTS);
  readonly #errors: ErrorTally;
  readonly #histogram: Histogram = createHistogram();
  readonly #rawHistogram: Histogram | null;
  readonly #connectHistogram: Histogram = createHistogram();
  readonly #tlsHistogram: Histogram = createHistogram();
  #firstMessageHistogram: Histogram | null = null;
  readonly #endpoints: EndpointRecorder | null;
  /** The worker's heartbeat (`markProgressIn`); null: not marked. */
  #progress: Float64Array | null = null;
  #ws: WsSampler | null = null;

  constructor(opts: RecorderOptions) {
    this.#intervalMs = opts.intervalMs;
    this.#originMs = opts.originMs;
    this.#errors = new ErrorTally(opts.maxMessageChars ?? MAX_MESSAGE_CHARS_PER_KIND);
    this.#rawHistogram = opts.uncorrected ? createHistogram() : null;
    this.#endpoints = opts.namedEndpoints
      ? new EndpointRecorder(0, true)
      : (opts.endpoints ?? 1) > 1
      ? new EndpointRecorder(opts.endpoints!)
      : null;
  }

  /** The index a run-time endpoint `name` records under; 0 without named endpoints. */
  endpointIndex(
    name: string,
    tags?: Record<string, string>,
    method?: string,
    expected?: ExpectedStatuses,
  ): number {
    return this.#endpoints === null ? 0 : this.#endpoints.indexOf(name, tags, method, expected);
  }

  /** Marks each event's time (a read, a write, an answer) and the answers' counts in the heartbeat. */
  markProgressIn(heartbeat: Float64Array): void {
    this.#progress = heartbeat;
  }

  /** Marks progress (an event, each connection closed at the end) in the heartbeat: slow is not stuck. */
  progressed(nowMs = performance.now()): void {
    if (this.#progress !== null) this.#progress[0] = performance.timeOrigin + nowMs;
  }

  /** One response; latencies in µs (corrected from the intended send, raw from the send). */
  recordResponse(nowMs: number, status: number, latencyUs: number, rawLatencyUs: number, endpoint = 0): void {
    if (!this.#slot(nowMs)) return;
    // A response to a send intended before t0 is the warm-up's even when it lands after t0 (as in
    // request_log.ts). The line sits 1 ms early: the ms -> us -> ms round trip can put a t0 send before it.
    if (nowMs - latencyUs / 1000 < this.#originMs - WARMUP_LINE_SLACK_MS) return;
    this.#c.requests++;
    if (nowMs >= this.#loadEndMs) this.#c.drained++;
    const slot = statusSlotOf(status);
    const verdict = (this.#endpoints?.failedSlots[endpoint] ?? FAILED_SLOTS)[slot];
    if (verdict === 1) this.#c.failedStatus++;
    else if (verdict === 2) this.#c.unjudged++;
    const progress = this.#progress;
    if (progress !== null) {
      progress[2]++;
      if (verdict === 1) progress[3]++;
    }
    this.#statusCounts[slot]++;
    const endpoints = this.#endpoints;
    if (endpoints === null) this.#histogram.recordValue(clampUs(latencyUs));
    else endpoints.response(endpoint, status, clampUs(latencyUs));
    const raw = this.#rawHistogram;
    if (raw !== null) raw.recordValue(clampUs(rawLatencyUs));
  }

  /** One answered WebSocket message: a response with no status; a flow's ws step records under `endpoint`. */
  recordMessage(nowMs: number, latencyUs: number, rawLatencyUs: number, endpoint = -1): void {
    if (!this.#slot(nowMs)) return;
    if (nowMs - latencyUs / 1000 < this.#originMs - WARMUP_LINE_SLACK_MS) return;
    this.#c.requests++;
    if (this.#progress !== null) this.#progress[2]++;
    if (nowMs >= this.#loadEndMs) this.#c.drained++;
    const endpoints = this.#endpoints;
    if (endpoints !== null && endpoint >= 0) endpoints.message(endpoint, clampUs(latencyUs));
    else this.#histogram.recordValue(clampUs(latencyUs));
    const raw = this.#rawHistogram;
    if (raw !== null) raw.recordValue(clampUs(rawLatencyUs));
  }

  /** The first message of a streamed answer just recorded: its latency (µs) from the same intended send. */
  recordFirstMessage(nowMs: number, latencyUs: number): void {
    if (!this.#slot(nowMs) || nowMs - latencyUs / 1000 < this.#originMs - WARMUP_LINE_SLACK_MS) return;
    (this.#firstMessageHistogram ??= createHistogram()).recordValue(clampUs(latencyUs));
  }

  /** A response failed by its status (`statusSlot`, gRPC's past HTTP's), its message kept under `kind`. */
  recordAnswered(
    nowMs: number,
    statusSlot: number,
    kind: ErrorKind,
    message: string,
    latencyUs: number,
    rawLatencyUs: number,
    endpoint = 0,
  ): void {
    this.lastErrorKind = kind;
    this.lastErrorMessage = message;
    if (!this.#slot(nowMs) || nowMs - latencyUs / 1000 < this.#originMs - WARMUP_LINE_SLACK_MS) return;
    this.recordResponse(nowMs, statusSlot, latencyUs, rawLatencyUs, endpoint);
    this.#errors.note(errorKindIndex(kind), message);
  }

  /** The last failure recorded, for a session script's failed response: no string built. */
  lastErrorKind: ErrorKind | null = null;
  lastErrorMessage = "";

  /** One failed request (`endpoint` negative: of none); the message is kept in a bounded map. */
  recordError(nowMs: number, kind: ErrorKind, message: string, endpoint = -1): void {
    this.lastErrorKind = kind;
    this.lastErrorMessage = message;
    if (!this.#slot(nowMs)) return;
    const k = errorKindIndex(kind);
    this.#errors.record(k, message);
    this.#endpoints?.error(endpoint, k);
  }

  /** Bytes read for the response of `endpoint` (negative: none). */
  addBytesRead(nowMs: number, n: number, endpoint = -1): void {
    if (!this.#slot(nowMs)) return;
    this.#c.bytesRead += n, ioBytes.read += n;
    this.#endpoints?.bytesRead(endpoint, n);
  }

  /** Bytes written for the request of `endpoint` (negative: none). */
  addBytesWritten(nowMs: number, n: number, endpoint = -1): void {
    if (!this.#slot(nowMs)) return;
    this.#c.bytesWritten += n, ioBytes.written += n;
    this.#endpoints?.bytesWritten(endpoint, n);
  }

  /** A send that went out after its intended time (open models). */
  lateSend(nowMs: number): void {
    if (this.#slot(nowMs)) this.#c.lateSends++;
  }

  /** A send that waited for a connection: every one busy, none could be opened at once (open models). */
  serverBoundSend(nowMs: number): void {
    if (this.#slot(nowMs)) this.#c.serverBoundSends++;
  }

  /** Requests still unanswered when the graceful stop ran out: counted apart, never as target failures. */
  unfinished(nowMs: number, count: number): void {
    if (this.#slot(nowMs)) this.#c.unfinished += count;
  }

  /** A request refused unprocessed (GOAWAY, REFUSED_STREAM) and sent again. */
  retried(nowMs: number): void {
    if (this.#slot(nowMs)) this.#c.retried++;
  }

  /** Sets the start of the measured run, once, for a recorder made with `originMs: Infinity`. */
  setOrigin(originMs: number): void {
    if (this.#originMs !== Infinity) throw new Error("the recorder's origin is already set");
    this.#originMs = originMs;
  }

  /** Sets (or moves earlier) the load's end: later responses count as drained. */
  setLoadEnd(loadEndMs: number): void {
    this.#loadEndMs = Math.min(this.#loadEndMs, loadEndMs);
  }

  /** Sends skipped past the bound (open models); one intended before t0 is the warm-up's and not counted. */
  droppedSend(nowMs: number, intendedMs = nowMs, count = 1): void {
    if (this.#slot(nowMs) && intendedMs >= this.#originMs - WARMUP_LINE_SLACK_MS) {
      this.#c.droppedSends += count;
    }
  }

  /** A connection opened: TCP connect time, and the TLS handshake's (negative for none). */
  connected(nowMs: number, connectUs: number, tlsUs = -1): void {
    if (!this.#slot(nowMs)) return;
    this.#c.connects++;
    this.#connectHistogram.recordValue(clampUs(connectUs));
    if (tlsUs >= 0) this.#tlsHistogram.recordValue(clampUs(tlsUs));
  }

  /** The server closed a connection (Connection: close or EOF) and it was reopened. */
  reconnected(nowMs: number): void {
    if (this.#slot(nowMs)) this.#c.reconnects++;
  }

  /** Samples of every interval ended by `nowMs`; with `final` also the partial one. */
  drain(nowMs: number, final: boolean): IntervalSample[] {
    // The last ws counts of the run need an interval to travel in, even with no response after them.
    if (final && this.#ws !== null && this.#ws.changed()) this.#slot(nowMs);
    if (nowMs >= this.#originMs) {
      const elapsed = (nowMs - this.#originMs) / this.#intervalMs;
      // final: the interval containing nowMs (ceil - 1 so a run ending on a boundary adds no empty tail).
      const last = final ? Math.max(this.#openIndex, Math.ceil(elapsed) - 1) : Math.floor(elapsed) - 1;
      this.#closeThrough(last);
    }
    const out = this.#pending;
    this.#pending = [];
    return out;
  }

  /** Marks progress and makes the interval of `nowMs` the open one; false for warm-up events. */
  #slot(nowMs: number): boolean {
    this.progressed(nowMs);
    if (nowMs < this.#openEndMs && nowMs >= this.#openStartMs) return true;
    if (nowMs < this.#originMs) return false;
    const index = Math.floor((nowMs - this.#originMs) / this.#intervalMs);
    // A late event cannot reopen a closed interval: it counts in the earliest one still open.
    if (index <= this.#openIndex) return true;
    const open = Math.max(index, this.#nextIndex);
    this.#closeThrough(open - 1);
    this.#openIndex = open;
    this.#openStartMs = this.#originMs + open * this.#intervalMs;
    this.#openEndMs = this.#openStartMs + this.#intervalMs;
    return true;
  }

  #closeThrough(last: number): void {
    for (let index = this.#nextIndex; index <= last; index++) {
      if (index === this.#openIndex) this.#pending.push(this.#takeOpen());
      else if (this.inFlight !== 0 || this.connections !== 0) this.#pending.push(this.#idleSample(index));
    }
    if (last >= this.#nextIndex) this.#nextIndex = last + 1;
  }

  /** Streams a WebSocket run's counts with the samples, read from `live` when an interval closes. */
  countWs(live: Readonly<WsIntervalCounts>): void {
    this.#ws = new WsSampler(live);
  }

  #idleSample(index: number): IntervalSample {
    return idleSample(index, this.inFlight, this.connections, this.#rawHistogram !== null);
  }

  #takeOpen(): IntervalSample {
    const sample = this.#idleSample(this.#openIndex);
    addCounters(sample, this.#c);
    Object.assign(this.#c, NO_COUNTERS);
    sample.statusCodes = takeStatusCodes(this.#statusCounts);
    this.#errors.takeInto(sample);
    if (this.#endpoints !== null) sample.endpoints = this.#endpoints.take(this.#histogram);
    if (this.#ws !== null) sample.ws = this.#ws.take();
    sample.histogram = this.#takeHistogram(this.#histogram) ?? sample.histogram;
    if (this.#rawHistogram !== null) {
      sample.uncorrectedHistogram = this.#takeHistogram(this.#rawHistogram) ?? sample.uncorrectedHistogram;
    }
    sample.connectHistogram = this.#takeHistogram(this.#connectHistogram);
    sample.tlsHistogram = this.#takeHistogram(this.#tlsHistogram);
    const first = this.#firstMessageHistogram;
    if (first !== null && first.totalCount > 0) sample.firstMessageHistogram = this.#takeHistogram(first)!;
    this.#openIndex = -1;
    this.#openStartMs = Infinity;
    this.#openEndMs = -Infinity;
    return sample;
  }

  #takeHistogram(h: Histogram): string | null {
    if (h.totalCount === 0) return null;
    const encoded = encodeHistogram(h);
    h.reset();
    return encoded;
  }
}
