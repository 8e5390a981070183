/**
 * @module
 * What a metrics exporter sends for one run at one instant (`ExportPoint`: counters since the run's
 * start, the interval's gauges, the latency as a native histogram, the target's telemetry, per-endpoint
 * totals) and what every series is called: `COUNTERS`, `WS_COUNTERS` (a WebSocket run's) and `METRICS`
 * name each once for both formats (results/export/remote_write.ts, otlp_json.ts) and the docs, and
 * `runLabels` labels a run's series. `NamedSample`s are series named as another tool names them (a k6
 * script's metrics at the run's end, k6/series.ts), which the encoders send as they are. Apart from the
 * running totals (run_series.ts) because the encoders and the sender read points without making them.
 */
import type { Counters } from "../interval_counts.ts";
import type { NativeHistogram } from "./native_histogram.ts";
import type { WsIntervalCounts } from "../ws_totals.ts";

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
  for (const sweep of run.sweeps ?? []) {
    // Two parameters can clean to one name (`query.a-b`, `query.a_b`): the later one takes Prometheus's
    // escaped form, which keeps every character apart, instead of overwriting the other's value.
    const name = labelName(`sweep_${sweep.parameter}`);
    labels[Object.hasOwn(labels, name) ? escapedLabelName(`sweep_${sweep.parameter}`) : name] = String(
      sweep.value,
    );
  }
  if (run.segment) labels.segment = `${run.segment.index}/${run.segment.count}`;
  return labels;
}

/** A valid Prometheus label name: [a-zA-Z_][a-zA-Z0-9_]*. */
export function labelName(name: string): string {
  const cleaned = name.replace(/[^a-zA-Z0-9_]/g, "_");
  return /^[a-zA-Z_]/.test(cleaned) ? cleaned : `_${cleaned}`;
}

/**
 * `name` in Prometheus's value-escaping of a UTF-8 name to a legacy one (`U__` prefix, `_` doubled, any
 * other character but a letter or digit as `_<hex code point>_`): distinct names stay distinct.
 */
function escapedLabelName(name: string): string {
  let out = "U__";
  for (const c of name) {
    out += /[a-zA-Z0-9]/.test(c) ? c : c === "_" ? "__" : `_${c.codePointAt(0)!.toString(16)}_`;
  }
  return out;
}
