/**
 * @module
 * One run's metrics as an exporter streams them: `RunSeries` folds the engine's interval deltas
 * (results/export/interval_delta.ts) into running totals and one cumulative HDR histogram, and takes an
 * `ExportPoint` after each interval: every counter since the run's start, the gauges of that interval,
 * the latency as a native histogram and the target's telemetry. Cumulative, as Prometheus counters and
 * OpenTelemetry's cumulative temporality are: a point that is never sent loses nothing, the next one has
 * it all. The point and the names of its series are export_point.ts's; a run's `endPoint` may carry
 * `NamedSample`s (a k6 script's metrics at the run's end), which the encoders send as they are. Pure but
 * for the clock the caller passes.
 */
import { addCounters, addCounts, emptyCounters, emptyIntervalCounts } from "../interval_counts.ts";
import { ERROR_KINDS } from "../schema/values.ts";
import { addEncoded, createHistogram, type Histogram } from "../histogram.ts";
import { nativeHistogram } from "./native_histogram.ts";
import type { IntervalDelta } from "./interval_delta.ts";
import type { ExportPoint, NamedSample, TelemetryGauge } from "./export_point.ts";
import { addWsIntervalCounts, emptyWsIntervalCounts, type WsIntervalCounts } from "../ws_totals.ts";

/** Running totals of one run. */
export class RunSeries {
  readonly #counters = emptyCounters();
  readonly #errors: Record<string, number> = Object.fromEntries(ERROR_KINDS.map((k) => [k, 0]));
  readonly #latency: Histogram = createHistogram();
  /** Per endpoint name, in first-seen order. */
  readonly #endpoints = new Map<string, { requests: number; errors: number; latency: Histogram }>();
  /** A WebSocket run's totals, from its first delta that carried them. */
  #ws: WsIntervalCounts | null = null;
  /** The last point taken, null before the first. */
  #last: ExportPoint | null = null;
  /** Counts folded since the last point. */
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

  /**
   * After the run's last interval, a point at `nowEpochMs` (at least 1 ms after the last one) when late
   * samples were folded since (a worker's last responses): else the series would end short of the run's
   * totals. Null when none.
   */
  closingPoint(nowEpochMs: number): ExportPoint | null {
    return this.#unsent ? this.endPoint(nowEpochMs, []) : null;
  }

  /**
   * The run's totals again at `nowEpochMs` (at least 1 ms after the last point) with `named`, the series
   * known only once the run is over (a k6 script's metrics); null when the run never had a point.
   */
  endPoint(nowEpochMs: number, named: NamedSample[]): ExportPoint | null {
    if (this.#last === null) return null;
    const { inFlight, connections, telemetry } = this.#last;
    return this.point(
      {
        ...emptyIntervalCounts(),
        index: -1,
        endEpochMs: nowEpochMs,
        errorKinds: {},
        inFlight,
        connections,
        histograms: [],
        late: false,
      },
      telemetry,
      named,
    );
  }
}
