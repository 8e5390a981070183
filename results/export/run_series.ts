/**
 * @module
 * One run's metrics as streamed: running totals, a cumulative histogram, a point per interval.
 */
import { addCounters, addCounts, emptyCounters, emptyIntervalCounts } from "../interval_counts.ts";
import { ERROR_KINDS } from "../schema/keys.ts";
import { addEncoded, createHistogram, type Histogram } from "../histogram.ts";
import { nativeHistogram } from "./native_histogram.ts";
import type { IntervalDelta } from "./interval_delta.ts";
import type { ExportPoint, NamedSample, TelemetryGauge } from "./export_point.ts";
import { addWsIntervalCounts, emptyWsIntervalCounts, type WsIntervalCounts } from "../ws_totals.ts";

export class RunSeries {
  readonly #counters = emptyCounters();
  readonly #errors: Record<string, number> = Object.fromEntries(ERROR_KINDS.map((k) => [k, 0]));
  readonly #latency: Histogram = createHistogram();
  /** Per endpoint name, in first-seen order. */
  readonly #endpoints = new Map<string, { requests: number; errors: number; latency: Histogram }>();
  /** A WebSocket run's totals, from its first delta that carried them. */
  #ws: WsIntervalCounts | null = null;
  #last: ExportPoint | null = null;
  #unsent = false;

  readonly startEpochMs: number;

  constructor(readonly labels: Record<string, string>, startEpochMs: number) {
    this.startEpochMs = Math.round(startEpochMs);
  }

  /** Adds one delta's counts and latencies (decoding its encodings: the exporter's cost, off the engine). */
  fold(delta: IntervalDelta): void {
    addCounters(this.#counters, delta);
    addCounts(this.#errors, delta.errorKinds);
    for (const encoded of delta.histograms) addEncoded(this.#latency, encoded);
    if (delta.ws !== undefined) addWsIntervalCounts(this.#ws ??= emptyWsIntervalCounts(), delta.ws);
    for (const e of delta.endpoints ?? []) {
      let into = this.#endpoints.get(e.name);
      if (into === undefined) {
        this.#endpoints.set(e.name, into = { requests: 0, errors: 0, latency: createHistogram() });
      }
      into.requests += e.requests;
      into.errors += e.errors;
      for (const encoded of e.histograms) addEncoded(into.latency, encoded);
    }
    this.#unsent = true;
  }

  /** The totals as of `delta`'s end, with its gauges, the telemetry given and any named series. */
  point(delta: IntervalDelta, telemetry: TelemetryGauge[], named: NamedSample[] = []): ExportPoint {
    // Never two points at one instant (a receiver refuses a second, different value there).
    const timestampMs = Math.max(Math.round(delta.endEpochMs), (this.#last?.timestampMs ?? -Infinity) + 1);
    this.#last = {
      labels: this.labels,
      startEpochMs: this.startEpochMs,
      timestampMs,
      counters: { ...this.#counters },
      errors: { ...this.#errors },
      inFlight: delta.inFlight,
      connections: delta.connections,
      latency: nativeHistogram(this.#latency),
      telemetry,
      endpoints: [...this.#endpoints].map(([name, e]) => ({
        name,
        requests: e.requests,
        errors: e.errors,
        latency: nativeHistogram(e.latency),
      })),
      ws: this.#ws === null ? null : { ...this.#ws },
      ...(named.length > 0 ? { named } : {}),
    };
    this.#unsent = false;
    return this.#last;
  }

  /** After the last interval, a point at `nowEpochMs` when late samples were folded since; else null. */
  closingPoint(nowEpochMs: number): ExportPoint | null {
    return this.#unsent ? this.endPoint(nowEpochMs, []) : null;
  }

  /** The run's totals again at `nowEpochMs` with `named` (known only at the end); null without points. */
  endPoint(nowEpochMs: number, named: NamedSample[]): ExportPoint | null {
    if (this.#last === null) return null;
    const { inFlight, connections, telemetry } = this.#last;
    const counts = { ...emptyIntervalCounts(), index: -1, endEpochMs: nowEpochMs, inFlight, connections };
    return this.point({ ...counts, errorKinds: {}, histograms: [], late: false }, telemetry, named);
  }
}
