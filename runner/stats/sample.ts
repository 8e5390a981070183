/**
 * @module
 * What a worker's recorder hands the main isolate for one interval (`IntervalSample`, plain data).
 */
import type { ErrorKind } from "../../results/mod.ts";
import { ERROR_KINDS as RESULT_ERROR_KINDS, type ExpectedStatuses } from "../../results/schema/keys.ts";
import { createHistogram, encodeHistogram } from "../../results/histogram.ts";
import { type Counters, emptyCounters } from "../../results/interval_counts.ts";
import type { WsIntervalCounts } from "../../results/ws_totals.ts";
import type { GeneratorLoad } from "../../results/conclude/generator_saturation.ts";

/** What a worker posts to the main isolate for one interval (its counters and more); plain data. */
export interface IntervalSample extends Counters {
  /** floor((eventMs - originMs) / intervalMs) */
  index: number;
  statusCodes: Record<string, number>;
  /** Failed requests of this interval by kind; kinds without a failure are absent. */
  errors: Partial<Record<ErrorKind, number>>;
  errorMessages: Record<string, Record<string, number>>;
  /** Encoded corrected latency (us). */
  histogram: string;
  uncorrectedHistogram: string | null;
  connectHistogram: string | null;
  /** https: TLS handshake times (µs) of the interval's connects; null when none. */
  tlsHistogram: string | null;
  /** Streamed answers' first-message latencies (µs, gRPC server streams); absent when none. */
  firstMessageHistogram?: string;
  inFlight: number;
  connections: number;
  /** Per endpoint with an event (runs of more than one endpoint): runner/stats/endpoint_recorder.ts. */
  endpoints?: EndpointSample[];
  /** A WebSocket run's handshakes and messages since the worker's previous sample (metrics outputs). */
  ws?: WsIntervalCounts;
  /** Closed models: how busy the worker's thread was in the interval (runner/stats/generator_meter.ts). */
  generator?: GeneratorLoad;
}

/** One endpoint's counts in one interval of one worker. */
export interface EndpointSample {
  /** Index in the run's endpoint table (a script's: in this worker's own, see `name`). */
  endpoint: number;
  /** The endpoint's name when the worker named it at run time (a session script's request). */
  name?: string;
  /** The user tags of a run-time endpoint's requests (a script's `tags`), when they have any. */
  tags?: Readonly<Record<string, string>>;
  /** A run-time endpoint's method (its first request's). */
  method?: string;
  /** The statuses its requests expect when their own (k6's `responseCallback`). */
  expectedStatuses?: ExpectedStatuses;
  requests: number;
  statusCodes: Record<string, number>;
  errors: Partial<Record<ErrorKind, number>>;
  bytesRead: number;
  bytesWritten: number;
  /** Encoded corrected latency (µs) of its responses; null when it had none. */
  histogram: string | null;
}

/** The error kinds in a fixed order (the results format's), so counts live in a typed array by kind. */
export const ERROR_KINDS: readonly ErrorKind[] = RESULT_ERROR_KINDS;

let emptyEncoding: string | null = null;
/** The encoding of an empty histogram, computed once: idle intervals must not pay for an encode. */
export function emptyHistogramEncoding(): string {
  if (emptyEncoding === null) emptyEncoding = encodeHistogram(createHistogram());
  return emptyEncoding;
}

/** A sample of an interval with no event: only the gauges, sampled when it closed. */
export function idleSample(index: number, inFlight: number, connections: number, uncorrected: boolean) {
  const empty = emptyHistogramEncoding();
  const sample: IntervalSample = {
    index,
    ...emptyCounters(),
    statusCodes: {},
    errors: {},
    errorMessages: {},
    histogram: empty,
    uncorrectedHistogram: uncorrected ? empty : null,
    connectHistogram: null,
    tlsHistogram: null,
    inFlight,
    connections,
  };
  return sample;
}

const KIND_INDEX = new Map(ERROR_KINDS.map((kind, k) => [kind, k]));

/** Kind to typed-array slot (`ERROR_KINDS` order): derived from the order, so the two cannot disagree. */
export function errorKindIndex(kind: ErrorKind): number {
  const k = KIND_INDEX.get(kind);
  if (k === undefined) throw new TypeError(`unknown error kind ${String(kind)}`);
  return k;
}
