/**
 * @module
 * One run's metrics as an exporter streams them: `RunSeries` folds the engine's interval deltas
 * (results/export/interval_delta.ts) into running totals and one cumulative HDR histogram, and takes an
 * `ExportPoint` after each interval: every counter since the run's start, the gauges of that interval,
 * the latency as a native histogram and the target's telemetry. Cumulative, as Prometheus counters and
 * OpenTelemetry's cumulative temporality are: a point that is never sent loses nothing, the next one has
 * it all. `WS_COUNTERS` (a WebSocket run's) and `METRICS` name every series once for both formats (results/export/remote_write.ts,
 * otlp_json.ts) and the docs. A run's `endPoint` may carry `NamedSample`s, series named as another tool
 * names them (a k6 script's metrics at the run's end, results/export/k6_series.ts), which the encoders send as
 * they are. Pure but for the clock the caller passes.
 */
import {
  addCounters,
  addCounts,
  type Counters,
  emptyCounters,
  emptyIntervalCounts,
} from "../interval_counts.ts";
import { ERROR_KINDS } from "../schema_values.ts";
import { addEncoded, createHistogram, type Histogram } from "../histogram.ts";
import { type NativeHistogram, nativeHistogram } from "./native_histogram.ts";
import type { IntervalDelta } from "./interval_delta.ts";
import { addWsIntervalCounts, emptyWsIntervalCounts, type WsIntervalCounts } from "../ws_totals.ts";

/** Counters exported, each with its Prometheus and OpenTelemetry name and its OpenTelemetry unit. */
export const COUNTERS = [
  {
    key: "requests",
    prom: "loadlab_requests_total",
    otlp: "loadlab.requests",
    unit: "{response}",
    help: "responses, any status",
  },
  {
    key: "failedStatus",
    prom: "loadlab_non2xx_responses_total",
    otlp: "loadlab.responses.non2xx",
    unit: "{response}",
    help: "responses with a status outside 2xx/3xx",
  },
  {
    key: "lateSends",
    prom: "loadlab_late_sends_total",
    otlp: "loadlab.sends.late",
    unit: "{send}",
    help: "sends more than 5 ms after their intended time (generator behind)",
  },
  {
    key: "droppedSends",
    prom: "loadlab_dropped_sends_total",
    otlp: "loadlab.sends.dropped",
    unit: "{send}",
    help: "sends dropped for being later than the late bound",
  },
  {
    key: "serverBoundSends",
    prom: "loadlab_server_bound_sends_total",
    otlp: "loadlab.sends.server_bound",
    unit: "{send}",
    help: "sends that waited for a connection the server held",
  },
  {
    key: "bytesRead",
    prom: "loadlab_read_bytes_total",
    otlp: "loadlab.read",
    unit: "By",
    help: "bytes read",
  },
  {
    key: "bytesWritten",
    prom: "loadlab_written_bytes_total",
    otlp: "loadlab.written",
    unit: "By",
    help: "bytes written",
  },
] as const satisfies readonly {
  key: keyof Counters;
  prom: string;
  otlp: string;
  unit: string;
  help: string;
}[];

/** A WebSocket run's counters (a point carries them only for a ws run), named as `COUNTERS` are. */
export const WS_COUNTERS = [
  {
    key: "handshakes",
    prom: "loadlab_ws_handshakes_total",
    otlp: "loadlab.ws.handshakes",
    unit: "{handshake}",
    help: "WebSocket handshakes completed (101 checked)",
  },
  {
    key: "messagesSent",
    prom: "loadlab_ws_sent_messages_total",
    otlp: "loadlab.ws.messages.sent",
    unit: "{message}",
    help: "WebSocket messages sent",
  },
  {
    key: "messagesReceived",
    prom: "loadlab_ws_received_messages_total",
    otlp: "loadlab.ws.messages.received",
    unit: "{message}",
    help: "WebSocket messages received (answers and unsolicited)",
  },
] as const satisfies readonly {
  key: keyof WsIntervalCounts;
  prom: string;
  otlp: string;
  unit: string;
  help: string;
}[];

/** Every other series, by role. */
export const METRICS = {
  latency: { prom: "loadlab_request_duration_seconds", otlp: "loadlab.request.duration" },
  errors: { prom: "loadlab_errors_total", otlp: "loadlab.errors" },
  inFlight: { prom: "loadlab_in_flight_requests", otlp: "loadlab.requests.in_flight" },
  connections: { prom: "loadlab_open_connections", otlp: "loadlab.connections" },
  cpu: { prom: "loadlab_target_cpu_percent", otlp: "loadlab.target.cpu" },
  rss: { prom: "loadlab_target_rss_bytes", otlp: "loadlab.target.rss" },
  // Per endpoint, labelled `endpoint` (names from the configuration or a script's request names, at most
  // MAX_ENDPOINTS + "(other)"): series of their own, so a sum over the label is the run's and never
  // counts the run's series twice.
  endpointRequests: { prom: "loadlab_endpoint_requests_total", otlp: "loadlab.endpoint.requests" },
  endpointErrors: { prom: "loadlab_endpoint_errors_total", otlp: "loadlab.endpoint.errors" },
  endpointLatency: {
    prom: "loadlab_endpoint_request_duration_seconds",
    otlp: "loadlab.endpoint.request.duration",
  },
} as const;

/** One endpoint's totals since the run's start in a point. */
export interface EndpointPoint {
  /** The value of the `endpoint` label. */
  name: string;
  requests: number;
  errors: number;
  latency: NativeHistogram;
}

/** A target process's last telemetry sample when the interval was handed on. */
export interface TelemetryGauge {
  process: string;
  cpuPercent?: number;
  rssBytes?: number;
}

/** Everything exported for one run at one instant; counters and latency since the run's start. */
export interface ExportPoint {
  labels: Record<string, string>;
  /** When the cumulative counts began (the run's start), ms since the epoch. */
  startEpochMs: number;
  /** The interval's end, ms since the epoch. */
  timestampMs: number;
  counters: Counters;
  /** Failed requests by kind, every kind (0 when none). */
  errors: Record<string, number>;
  inFlight: number;
  connections: number;
  latency: NativeHistogram;
  telemetry: TelemetryGauge[];
  /** Per endpoint of a run of several; empty otherwise. */
  endpoints: EndpointPoint[];
  /** A WebSocket run's handshakes and messages since its start; null for an HTTP run. */
  ws: WsIntervalCounts | null;
  /** Series another tool's users know, by their names there (a k6 script's end-of-run metrics). */
  named?: NamedSample[];
}

/**
 * One value of a series named as another tool names it, for either format or both (a name left out is
 * not sent in that format): the encoders send these as they are, knowing nothing of the tool.
 */
export interface NamedSample {
  prom?: string;
  otlp?: string;
  type: "counter" | "gauge";
  value: number;
  /** OpenTelemetry's unit ("" when none). */
  unit: string;
  help: string;
  /** Labels beside the run's. */
  labels: Record<string, string>;
}

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

/**
 * A run's labels: experiment, variant (the target), load, run (its name), repeat, one `sweep_<parameter>`
 * per sweep axis (names made valid Prometheus label names) and, for a shard, segment ("i/N").
 */
export function runLabels(run: {
  experiment: string;
  variant?: string;
  load?: string;
  name: string;
  repeat?: number;
  sweeps?: { parameter: string; value: number | string }[];
  /** `--segment i/N`: shards on several machines send the same runs, told apart by this label. */
  segment?: { index: number; count: number };
}): Record<string, string> {
  const labels: Record<string, string> = {
    experiment: run.experiment,
    variant: run.variant ?? "attack",
    load: run.load ?? "attack",
    run: run.name,
  };
  if (run.repeat !== undefined) labels.repeat = String(run.repeat + 1);
  for (const sweep of run.sweeps ?? []) labels[labelName(`sweep_${sweep.parameter}`)] = String(sweep.value);
  if (run.segment) labels.segment = `${run.segment.index}/${run.segment.count}`;
  return labels;
}

/** A valid Prometheus label name: [a-zA-Z_][a-zA-Z0-9_]*. */
export function labelName(name: string): string {
  const cleaned = name.replace(/[^a-zA-Z0-9_]/g, "_");
  return /^[a-zA-Z_]/.test(cleaned) ? cleaned : `_${cleaned}`;
}
