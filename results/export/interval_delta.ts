/**
 * @module
 * What the engine hands a metrics exporter per interval: counts and latency encodings by reference, unmerged.
 */
import type { IntervalCounts } from "../interval_counts.ts";
import type { WsIntervalCounts } from "../ws_totals.ts";

/** One interval's counts as the engine closed it; the encodings are of its workers' HDR histograms (µs). */
export interface IntervalDelta extends IntervalCounts {
  /** Interval index from the start of the measured run (after warm-up). */
  index: number;
  /** The interval's nominal end, ms since the epoch (a last, partial interval is handed on before it). */
  endEpochMs: number;
  errorKinds: Record<string, number>;
  /** Requests in flight and open connections when the interval closed (summed over workers). */
  inFlight: number;
  connections: number;
  /** Compressed base64 HDR encodings of the corrected latency (µs), one per worker that answered. */
  histograms: string[];
  /** A sample that came after its interval had been handed on: counts to add, not a point of its own. */
  late: boolean;
  /** Per endpoint with an event (runs of several endpoints): its counts and its workers' encodings. */
  endpoints?: EndpointDelta[];
  /** A WebSocket run's handshakes and messages of the interval (summed over its workers). */
  ws?: WsIntervalCounts;
}

/** One endpoint's part of an interval. */
export interface EndpointDelta {
  /** The endpoint's name (runner/endpoint_table.ts: bounded, never a filled value). */
  name: string;
  requests: number;
  errors: number;
  /** Compressed base64 HDR encodings of its corrected latency (µs), one per worker that had a response. */
  histograms: string[];
}
