/**
 * @module
 * What a metrics exporter sends for one run at one instant (`ExportPoint`) and what each series is
 * called (`COUNTERS`, `WS_COUNTERS`, `METRICS`, `runLabels`), once for every format and the docs.
 */
import type { Counters } from "../interval_counts.ts";
import type { NativeHistogram } from "./native_histogram.ts";
import type { WsIntervalCounts } from "../ws_totals.ts";

/** A series' Prometheus name, OpenTelemetry name and unit ("" when none), and its help text. */
type SeriesNames = { prom: string; otlp: string; unit: string; help: string };
/** A series' names, where a named sample may lack one. */
type Names = Omit<SeriesNames, "prom" | "otlp"> & { prom?: string; otlp?: string };

function series(prom: string, otlp: string, unit: string, help: string): SeriesNames {
  return { prom, otlp, unit, help };
}

function counter<K extends string>(key: K, ...names: Parameters<typeof series>): SeriesNames & { key: K } {
  return { key, ...series(...names) };
}

/** Counters exported, each with its Prometheus and OpenTelemetry name and its OpenTelemetry unit. */
const COUNTERS: ReadonlyArray<SeriesNames & { key: keyof Counters }> = [
  counter("requests", "loadlab_requests_total", "loadlab.requests", "{response}", "responses, any status"),
  counter(
    "failedStatus",
    "loadlab_non2xx_responses_total",
    "loadlab.responses.non2xx",
    "{response}",
    "responses with a status outside 2xx/3xx",
  ),
  counter(
    "lateSends",
    "loadlab_late_sends_total",
    "loadlab.sends.late",
    "{send}",
    "sends more than 5 ms after their intended time (generator behind)",
  ),
  counter(
    "droppedSends",
    "loadlab_dropped_sends_total",
    "loadlab.sends.dropped",
    "{send}",
    "sends dropped for being later than the late bound",
  ),
  counter(
    "serverBoundSends",
    "loadlab_server_bound_sends_total",
    "loadlab.sends.server_bound",
    "{send}",
    "sends that waited for a connection the server held",
  ),
  counter("bytesRead", "loadlab_read_bytes_total", "loadlab.read", "By", "bytes read"),
  counter("bytesWritten", "loadlab_written_bytes_total", "loadlab.written", "By", "bytes written"),
];

/** A WebSocket run's counters (a point carries them only for a ws run), named as `COUNTERS` are. */
const WS_COUNTERS: ReadonlyArray<SeriesNames & { key: keyof WsIntervalCounts }> = [
  counter(
    "handshakes",
    "loadlab_ws_handshakes_total",
    "loadlab.ws.handshakes",
    "{handshake}",
    "WebSocket handshakes completed (101 checked)",
  ),
  counter(
    "messagesSent",
    "loadlab_ws_sent_messages_total",
    "loadlab.ws.messages.sent",
    "{message}",
    "WebSocket messages sent",
  ),
  counter(
    "messagesReceived",
    "loadlab_ws_received_messages_total",
    "loadlab.ws.messages.received",
    "{message}",
    "WebSocket messages received (answers and unsolicited)",
  ),
];

/** Every other series, by role, named and described as `COUNTERS` are. */
const METRICS = {
  latency: series(
    "loadlab_request_duration_seconds",
    "loadlab.request.duration",
    "s",
    "request latency (from the intended send time)",
  ),
  errors: series("loadlab_errors_total", "loadlab.errors", "{request}", "failed requests by kind"),
  inFlight: series(
    "loadlab_in_flight_requests",
    "loadlab.requests.in_flight",
    "{request}",
    "requests in flight at the interval's end",
  ),
  connections: series(
    "loadlab_open_connections",
    "loadlab.connections",
    "{connection}",
    "open connections at the interval's end",
  ),
  cpu: series("loadlab_target_cpu_percent", "loadlab.target.cpu", "%", "target process CPU, % of one core"),
  rss: series("loadlab_target_rss_bytes", "loadlab.target.rss", "By", "target process resident memory"),
  // Per endpoint, labelled `endpoint`: series of their own, so summing the label never counts the run twice.
  endpointRequests: series(
    "loadlab_endpoint_requests_total",
    "loadlab.endpoint.requests",
    "{response}",
    "responses of one endpoint, any status",
  ),
  endpointErrors: series(
    "loadlab_endpoint_errors_total",
    "loadlab.endpoint.errors",
    "{request}",
    "failed requests of one endpoint",
  ),
  endpointLatency: series(
    "loadlab_endpoint_request_duration_seconds",
    "loadlab.endpoint.request.duration",
    "s",
    "one endpoint's request latency (from the intended send time)",
  ),
};

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
  timestampMs: number;
  counters: Counters;
  /** Failed requests by kind, every kind (0 when none). */
  errors: Record<string, number>;
  inFlight: number;
  connections: number;
  latency: NativeHistogram;
  telemetry: TelemetryGauge[];
  /** Per endpoint of a run of several; empty otherwise. */
  endpoints: Array<{ name: string; requests: number; errors: number; latency: NativeHistogram }>;
  /** A WebSocket run's handshakes and messages since its start; null for an HTTP run. */
  ws: WsIntervalCounts | null;
  /** Series another tool's users know, by their names there (a k6 script's end-of-run metrics). */
  named?: NamedSample[];
}

/** One value of a series named as another tool names it; the encoders send it as it is. */
export type NamedSample = Names & {
  type: "counter" | "gauge";
  value: number;
  labels: Record<string, string>;
};

/** One series family of a batch of points, walked once for every format: names, kind, help, samples. */
export interface ExportFamily extends Names {
  type: "counter" | "gauge" | "histogram";
  /** Whole numbers (OTLP's `asInt`), else doubles. */
  integer: boolean;
  /** Sent only with samples (gauges, per-endpoint and ws series); the run's counters always. */
  optional: boolean;
  /** Each value at its point, with the labels it adds to the point's. */
  samples: Array<{ point: ExportPoint; labels: Record<string, string>; value: number | NativeHistogram }>;
}

type Values = (p: ExportPoint) => Array<[Record<string, string>, number | NativeHistogram]>;

/** The families of a batch: the counters, latency, gauges, per-endpoint, ws and named series. */
export function exportFamilies(points: ExportPoint[]): ExportFamily[] {
  const family = (names: Names, type: ExportFamily["type"], optional: boolean, of: Values): ExportFamily => ({
    prom: names.prom,
    otlp: names.otlp,
    type,
    unit: names.unit,
    help: names.help,
    integer: type !== "histogram" && names !== METRICS.cpu && names !== METRICS.rss,
    optional,
    samples: points.flatMap((point) => of(point).map(([labels, value]) => ({ point, labels, value }))),
  });
  const one = (value: number | NativeHistogram): ReturnType<Values> => [[{}, value]];
  const telemetry = (p: ExportPoint, field: "cpuPercent" | "rssBytes"): ReturnType<Values> =>
    p.telemetry.flatMap((t) => t[field] === undefined ? [] : [[{ process: t.process }, t[field]!]]);
  const perEndpoint = (field: "requests" | "errors" | "latency"): Values => (p) =>
    p.endpoints.map((e) => [{ endpoint: e.name }, e[field]]);
  const named = new Map<string, ExportFamily>();
  for (const point of points) {
    for (const n of point.named ?? []) {
      const key = JSON.stringify([n.prom, n.otlp]);
      let into = named.get(key);
      if (into === undefined) {
        named.set(key, into = { ...family(n, n.type, false, () => []), integer: false });
      }
      into.samples.push({ point, labels: n.labels, value: n.value });
    }
  }
  return [
    ...COUNTERS.map((c) => family(c, "counter", false, (p) => one(p.counters[c.key]))),
    ...WS_COUNTERS.map((c) => family(c, "counter", true, (p) => p.ws === null ? [] : one(p.ws[c.key]))),
    family(
      METRICS.errors,
      "counter",
      false,
      (p) => Object.entries(p.errors).map(([kind, n]) => [{ kind }, n]),
    ),
    family(METRICS.latency, "histogram", false, (p) => one(p.latency)),
    family(METRICS.inFlight, "gauge", true, (p) => one(p.inFlight)),
    family(METRICS.connections, "gauge", true, (p) => one(p.connections)),
    family(METRICS.endpointRequests, "counter", true, perEndpoint("requests")),
    family(METRICS.endpointErrors, "counter", true, perEndpoint("errors")),
    family(METRICS.endpointLatency, "histogram", true, perEndpoint("latency")),
    family(METRICS.cpu, "gauge", true, (p) => telemetry(p, "cpuPercent")),
    family(METRICS.rss, "gauge", true, (p) => telemetry(p, "rssBytes")),
    ...named.values(),
  ];
}

/** A run's labels: experiment, variant, load, run, repeat, `sweep_<parameter>`, segment. */
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
    // Two parameters can clean to one name: the later takes Prometheus's escaped form.
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

/** `name` in Prometheus's value-escaping (`U__` prefix), so distinct names stay distinct. */
function escapedLabelName(name: string): string {
  let out = "U__";
  for (const c of name) {
    out += /[a-zA-Z0-9]/.test(c) ? c : c === "_" ? "__" : `_${c.codePointAt(0)!.toString(16)}_`;
  }
  return out;
}
