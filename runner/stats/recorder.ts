/**
 * @module
 * The worker-side recorder: one `IntervalRecorder` per worker isolate, called by the executors for every
 * response, error and byte count. HOT PATH: the per-event methods allocate nothing, build no strings and
 * create no closures; the counters are the fields of one `Counters` object made once (one shape, plain
 * numbers, zeroed in place), status codes (000-999) count into a `Uint32Array(1000)` and latencies go
 * straight into reused HdrHistograms. Each event is attributed to the interval its own timestamp falls in
 * (`floor((nowMs - originMs) / intervalMs)`), rotating lazily when an event lands past the open interval, so
 * timer jitter in `drain` never moves a response into the wrong interval. Allocation happens only when an
 * interval is closed (about 4 times a second): that is where counters become a plain `IntervalSample` that
 * can cross isolates with `postMessage` (its format: runner/stats/sample.ts). Errors stay by kind in every
 * interval's sample, so the aggregator can keep each interval's error counts by kind.
 */

import type { ErrorKind } from "../../results/mod.ts";
import { clampUs, createHistogram, encodeHistogram, type Histogram } from "../../results/histogram.ts";
import { addCounters, type Counters, emptyCounters } from "../../results/interval_counts.ts";
import type { WsIntervalCounts } from "../../results/ws_totals.ts";
import { errorKindIndex, idleSample, type IntervalSample } from "./sample.ts";
import { STATUS_SLOTS, statusSlotOf } from "../../results/schema_values.ts";
import { EndpointRecorder } from "./endpoint_recorder.ts";
import { ErrorTally, takeStatusCodes, WsSampler } from "./tallies.ts";

/** Zero of every counter, copied over the open interval's counters when it closes. */
const NO_COUNTERS: Readonly<Counters> = Object.freeze(emptyCounters());

/** How the recorder slices time and what it keeps. */
interface RecorderOptions {
  intervalMs: number;
  /**
   * `performance.now()` at the start of the measured run; earlier events are warm-up and ignored.
   * Infinity until `setOrigin` (a recorder made before t0, while connections are opened).
   */
  originMs: number;
  /** Also keep latencies measured from the actual send time (throughput model). */
  uncorrected: boolean;
  /** Distinct error messages kept per kind and interval; the rest count under "(other)". Default 20. */
  maxMessagesPerKind?: number;
  /** Endpoints of the run (runner/endpoint_table.ts); more than one are counted apart. Default 1. */
  endpoints?: number;
  /** Endpoints are named at run time (a session script's requests; see `endpointIndex`), not counted up front. */
  namedEndpoints?: boolean;
}

/** How far before t0 a send may be intended and still count as the run's (rounding, not backlog). */
const WARMUP_LINE_SLACK_MS = 1;

/** Records events of one worker into per-interval counters and histograms. */
export class IntervalRecorder {
  /** Requests in flight; set by the executor, sampled when an interval closes. */
  inFlight = 0;
  /** Open connections; set by the executor, sampled when an interval closes. */
  connections = 0;

  readonly #intervalMs: number;
  #originMs: number;
  /** `performance.now()` at the load's end (its planned end, or a stop): later responses are the drain. */
  #loadEndMs = Infinity;
  /** Index of the interval collecting events, or -1 when none is open. */
  #openIndex = -1;
  #openStartMs = Infinity;
  #openEndMs = -Infinity;
  /** First interval index not yet emitted; everything below it has been closed. */
  #nextIndex = 0;
  #pending: IntervalSample[] = [];

  /** The open interval's counters: one object for the recorder's life, incremented field by field. */
  readonly #c: Counters = emptyCounters();
  /** Index = status slot (schema_values.ts `statusKey`); out-of-range codes count at 0 ("no valid status"). */
  readonly #statusCounts = new Uint32Array(STATUS_SLOTS);
  readonly #errors: ErrorTally;
  readonly #histogram: Histogram = createHistogram();
  readonly #rawHistogram: Histogram | null;
  readonly #connectHistogram: Histogram = createHistogram();
  readonly #tlsHistogram: Histogram = createHistogram();
  /** Streamed answers' first-message latencies (gRPC server streams); made on the first one. */
  #firstMessageHistogram: Histogram | null = null;
  /** Per-endpoint counts, or null for a run of one endpoint (its counts are the run's). */
  readonly #endpoints: EndpointRecorder | null;
  /** The worker's heartbeat, marked and counted into with each answer (`markProgressIn`); null: not marked. */
  #progress: Float64Array | null = null;
  #ws: WsSampler | null = null;

  constructor(opts: RecorderOptions) {
    if (!(opts.intervalMs > 0)) throw new RangeError(`intervalMs must be > 0, got ${opts.intervalMs}`);
    this.#intervalMs = opts.intervalMs;
    this.#originMs = opts.originMs;
    this.#errors = new ErrorTally(opts.maxMessagesPerKind ?? 20);
    this.#rawHistogram = opts.uncorrected ? createHistogram() : null;
    this.#endpoints = opts.namedEndpoints
      ? new EndpointRecorder(0, true)
      : (opts.endpoints ?? 1) > 1
      ? new EndpointRecorder(opts.endpoints!)
      : null;
  }

  /**
   * The index a run-time endpoint `name` (with its user `tags`) records under (a session script's
   * request); 0 without named endpoints.
   */
  endpointIndex(name: string, tags?: Readonly<Record<string, string>>): number {
    return this.#endpoints === null ? 0 : this.#endpoints.indexOf(name, tags);
  }

  /**
   * Marks `heartbeat[0]` (epoch ms) with each answer from here on: a worker whose loop turns rarely because
   * each answer costs it much (a slow capture over a backlog) is making progress, not stuck in code. Each
   * answer counted adds to `heartbeat[2]`, a failed status to `heartbeat[3]` (worker/protocol.ts).
   */
  markProgressIn(heartbeat: Float64Array): void {
    this.#progress = heartbeat;
  }

  /**
   * One response with any status of endpoint `endpoint`; latencies in microseconds (corrected from
   * intended send, raw from send).
   */
  recordResponse(nowMs: number, status: number, latencyUs: number, rawLatencyUs: number, endpoint = 0): void {
    if (!this.#slot(nowMs)) return;
    if (this.#progress !== null) this.#progress[0] = performance.timeOrigin + nowMs;
    // A response to a send intended before t0 is the warm-up's even when it lands after t0 (a backlog of
    // late warm-up sends caught up): counting it put achieved above requested in short runs. The request
    // log (request_log.ts) draws the line at the intended send the same way.
    // The intended time comes back through a floating-point round trip (ms -> us -> ms), so a send made at
    // t0 itself can land a hair before it: the line sits 1 ms early, far from any backlog (which is at
    // least the late bound old).
    if (nowMs - latencyUs / 1000 < this.#originMs - WARMUP_LINE_SLACK_MS) return;
    this.#c.requests++;
    if (nowMs >= this.#loadEndMs) this.#c.drained++;
    const failed = status < 200 || status >= 400;
    if (failed) this.#c.failedStatus++;
    const progress = this.#progress;
    if (progress !== null) {
      progress[2]++;
      if (failed) progress[3]++;
    }
    this.#statusCounts[statusSlotOf(status)]++;
    // One record per response: with endpoints, in its endpoint's histogram (the run's is their sum).
    const endpoints = this.#endpoints;
    if (endpoints === null) this.#histogram.recordValue(clampUs(latencyUs));
    else endpoints.response(endpoint, status, clampUs(latencyUs));
    const raw = this.#rawHistogram;
    if (raw !== null) raw.recordValue(clampUs(rawLatencyUs));
  }

  /**
   * One answered WebSocket message: counted with the responses and its round trip in the same
   * histograms, but under no status (a message has none), so it is never a non-2xx; a flow's ws step
   * records under its `endpoint`.
   */
  recordMessage(nowMs: number, latencyUs: number, rawLatencyUs: number, endpoint = -1): void {
    if (!this.#slot(nowMs)) return;
    if (nowMs - latencyUs / 1000 < this.#originMs - WARMUP_LINE_SLACK_MS) return;
    this.#c.requests++;
    if (this.#progress !== null) this.#progress[2]++;
    if (nowMs >= this.#loadEndMs) this.#c.drained++;
    // A flow's ws step is an endpoint of its own; a whole-run ws load's messages are the run's.
    const endpoints = this.#endpoints;
    if (endpoints !== null && endpoint >= 0) endpoints.message(endpoint, clampUs(latencyUs));
    else this.#histogram.recordValue(clampUs(latencyUs));
    const raw = this.#rawHistogram;
    if (raw !== null) raw.recordValue(clampUs(rawLatencyUs));
  }

  /**
   * The first message of a streamed answer just recorded (`recordResponse`, the whole stream's latency):
   * its latency from the same intended send, µs.
   */
  recordFirstMessage(nowMs: number, latencyUs: number): void {
    if (!this.#slot(nowMs) || nowMs - latencyUs / 1000 < this.#originMs - WARMUP_LINE_SLACK_MS) return;
    (this.#firstMessageHistogram ??= createHistogram()).recordValue(clampUs(latencyUs));
  }

  /**
   * A response whose answer failed by the status the server gave (`statusSlot`, a gRPC status past the
   * HTTP ones): a request like any response, its latency recorded; its `kind` and `message` are the
   * last failure's (a session's failed call) and the message is kept, under its kind, as a failure's is.
   */
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

  /**
   * The last failure recorded, for a session script's failed response (its exchange settles in the turn
   * its failure is counted): two field writes of existing strings, nothing built.
   */
  lastErrorKind: ErrorKind | null = null;
  lastErrorMessage = "";

  /**
   * One failed request of endpoint `endpoint` (negative: of none, e.g. a connect before any request was
   * picked); the message is kept in a bounded map (existing strings only, nothing built).
   */
  recordError(nowMs: number, kind: ErrorKind, message: string, endpoint = -1): void {
    this.lastErrorKind = kind;
    this.lastErrorMessage = message;
    if (!this.#slot(nowMs)) return;
    const k = errorKindIndex(kind);
    this.#errors.record(k, message);
    this.#endpoints?.error(endpoint, k);
  }

  /** Bytes read, counted under the endpoint whose response they arrived for (negative: none). */
  addBytesRead(nowMs: number, n: number, endpoint = -1): void {
    if (!this.#slot(nowMs)) return;
    this.#c.bytesRead += n;
    this.#endpoints?.bytesRead(endpoint, n);
  }

  /** Bytes written, counted under the endpoint of the request they carry (negative: none). */
  addBytesWritten(nowMs: number, n: number, endpoint = -1): void {
    if (!this.#slot(nowMs)) return;
    this.#c.bytesWritten += n;
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

  /**
   * `count` requests still waiting for an answer when the graceful stop ran out: the experiment's own
   * stop cut them, so they are counted apart, never as failures of the target.
   */
  unfinished(nowMs: number, count: number): void {
    if (this.#slot(nowMs)) this.#c.unfinished += count;
  }

  /**
   * A request the server refused unprocessed (HTTP/2 GOAWAY or REFUSED_STREAM), sent again: its outcome is
   * counted then.
   */
  retried(nowMs: number): void {
    if (this.#slot(nowMs)) this.#c.retried++;
  }

  /** Sets the start of the measured run, once, for a recorder made with `originMs: Infinity`. */
  setOrigin(originMs: number): void {
    if (this.#originMs !== Infinity) throw new Error("the recorder's origin is already set");
    this.#originMs = originMs;
  }

  /**
   * Sets (or moves earlier, on a stop) the load's end: responses after it are counted as drained, apart
   * from the served rate over the load window. Never set for a load that ends with its last response.
   */
  setLoadEnd(loadEndMs: number): void {
    this.#loadEndMs = Math.min(this.#loadEndMs, loadEndMs);
  }

  /**
   * `count` sends skipped because they were later than the bound (open models). One intended before t0
   * was the warm-up's, as its response would have been (`recordResponse`): not counted, so sent + dropped
   * stays within the run's own schedule.
   */
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

  /**
   * Samples of every interval that ended at or before `nowMs` and had an event or a non-zero gauge; with
   * `final` also the current partial interval. Call it from a timer and once at the end.
   */
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

  /** Makes the interval of `nowMs` the open one; false for warm-up events. The common case is one compare. */
  #slot(nowMs: number): boolean {
    if (nowMs < this.#openEndMs && nowMs >= this.#openStartMs) return true;
    if (nowMs < this.#originMs) return false;
    const index = Math.floor((nowMs - this.#originMs) / this.#intervalMs);
    // An event stamped before the open interval (or one already drained) cannot reopen a closed interval:
    // it counts in the earliest interval still open, which keeps totals exact.
    if (index <= this.#openIndex) return true;
    this.#open(Math.max(index, this.#nextIndex));
    return true;
  }

  #open(index: number): void {
    this.#closeThrough(index - 1);
    this.#openIndex = index;
    this.#openStartMs = this.#originMs + index * this.#intervalMs;
    this.#openEndMs = this.#openStartMs + this.#intervalMs;
  }

  /** Emits samples for intervals nextIndex..last: the open one with its counters, idle ones with gauges. */
  #closeThrough(last: number): void {
    for (let index = this.#nextIndex; index <= last; index++) {
      if (index === this.#openIndex) this.#pending.push(this.#takeOpen());
      else if (this.inFlight !== 0 || this.connections !== 0) this.#pending.push(this.#idleSample(index));
    }
    if (last >= this.#nextIndex) this.#nextIndex = last + 1;
  }

  /**
   * Streams a WebSocket run's handshakes and messages with the samples: each sample carries what `live`
   * counted since the previous one, read when the interval closes (the hot path counts once, there).
   */
  countWs(live: Readonly<WsIntervalCounts>): void {
    this.#ws = new WsSampler(live);
  }

  #idleSample(index: number): IntervalSample {
    return idleSample(index, this.inFlight, this.connections, this.#rawHistogram !== null);
  }

  /** Turns the open interval into a sample and resets every counter and histogram for reuse. */
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

  /** Encodes and resets a histogram; null when it recorded nothing. */
  #takeHistogram(h: Histogram): string | null {
    if (h.totalCount === 0) return null;
    const encoded = encodeHistogram(h);
    h.reset();
    return encoded;
  }
}
