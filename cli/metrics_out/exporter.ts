/**
 * @module
 * `--out KIND=URL` while the load runs: each finished interval goes into a bounded inbox.
 */
import { defined } from "../../validation/defined.ts";
import snappy from "snappyjs";
import denoJson from "../../deno.json" with { type: "json" };
import type { IntervalDelta } from "../../results/export/interval_delta.ts";
import {
  type ExportPoint,
  type NamedSample,
  runLabels,
  type TelemetryGauge,
} from "../../results/export/export_point.ts";
import { RunSeries } from "../../results/export/run_series.ts";
import { redactShown } from "../../results/redact.ts";
import { encodeOtlpRequest, encodeWriteRequest, otlpRequest } from "../../results/export/push_bodies.ts";
import type { ExportSummary, MetricsOutKind } from "../../results/export/summary.ts";
import type { TelemetrySeries } from "../../results/mod.ts";
import type { PlannedRun } from "../../scenarios/plan/types.ts";
import type { RunPlanHooks } from "../../scenarios/run/run_plan.ts";
import type { MetricsOutput } from "../../results/export/metrics_output.ts";
import { DEFAULT_SENDER_OPTIONS, type EncodedBatch, OutputSender, type SenderOptions } from "./sender.ts";

/** Deltas waiting to be folded at most; beyond, the oldest is folded at once and its point dropped. */
const INBOX_CAPACITY = 4_096;
const FLUSH_LIMIT_MS = 5_000;

interface ExporterOptions {
  /** How often the inbox is folded and handed to the senders (ms). */
  pumpEveryMs?: number;
  sender?: Partial<SenderOptions>;
}

/** Streams a command's runs to every `--out` output. */
export class MetricsExporter {
  readonly #senders: OutputSender[];
  readonly #pumpEveryMs: number;
  #inbox: Array<{ series: RunSeries; delta: IntervalDelta; telemetry: TelemetryGauge[] }> = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #current: RunSeries | null = null;
  #currentName = "";
  /** Every series of the command by run name, for the points added once a run is over. */
  readonly #byName = new Map<string, RunSeries>();
  /** The series the last pump folded into: closed (`closingPoint`) when another one starts, or at the end. */
  #pumped: RunSeries | null = null;

  constructor(outputs: MetricsOutput[], opts: ExporterOptions = {}) {
    const senderOptions = { ...DEFAULT_SENDER_OPTIONS, ...opts.sender };
    this.#senders = outputs.map((o) => new OutputSender(o, redacting(encoderOf(o)), senderOptions));
    this.#pumpEveryMs = opts.pumpEveryMs ?? 1_000;
  }

  /** Hooks for `runAttack` of `loadlab attack` (one run, labelled experiment=attack; a shard's segment). */
  attackHooks(segment?: { index: number; count: number }): { onInterval(delta: IntervalDelta): void } {
    const run = { experiment: "attack", name: "attack", ...defined({ segment }) };
    return { onInterval: (delta) => this.interval(run, delta, null) };
  }

  /** `hooks` with the experiment's intervals streamed too. */
  planHooks(experiment: string, hooks: RunPlanHooks): RunPlanHooks {
    return {
      ...hooks,
      onInterval: (delta, run, telemetry) => {
        hooks.onInterval?.(delta, run, telemetry);
        this.interval(plannedLabels(experiment, run), delta, telemetry);
      },
    };
  }

  /** Queues one interval of the run named `run.name` (a new name starts a new series). */
  interval(
    run: Parameters<typeof runLabels>[0],
    delta: IntervalDelta,
    telemetry: (() => TelemetrySeries[]) | null,
  ): void {
    const nowMs = Date.now();
    if (this.#current === null || this.#currentName !== run.name) {
      this.#current = new RunSeries(runLabels(run), nowMs);
      this.#currentName = run.name;
      this.#byName.set(run.name, this.#current);
    }
    this.#inbox.push({
      series: this.#current,
      delta: delta.endEpochMs > nowMs ? { ...delta, endEpochMs: nowMs } : delta,
      telemetry: telemetry ? latestTelemetry(telemetry()) : [],
    });
    if (this.#inbox.length > INBOX_CAPACITY) {
      const oldest = this.#inbox.shift()!;
      if (oldest.series !== this.#pumped) {
        const closing: ExportPoint[] = [];
        this.#closeSeries(closing, oldest.series);
        this.#hand(closing);
      }
      oldest.series.fold(oldest.delta);
      if (!oldest.delta.late) this.#senders.forEach((s) => s.countDropped(1));
    }
    this.#timer ??= setTimeout(() => this.#pump(), this.#pumpEveryMs);
  }

  /** Folds the inbox into points and hands them to every sender; `end`: no interval follows. */
  #pump(end = false): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const points: ExportPoint[] = [];
    for (const { series, delta, telemetry } of this.#inbox.splice(0)) {
      if (series !== this.#pumped) this.#closeSeries(points, series);
      series.fold(delta);
      if (!delta.late) points.push(series.point(delta, telemetry));
    }
    if (end) this.#closeSeries(points, null);
    this.#hand(points);
  }

  #hand(points: ExportPoint[]): void {
    if (points.length > 0) { for (const sender of this.#senders) sender.push(points); }
  }

  /** The previous series' closing point (late samples after its last interval); then `next` is current. */
  #closeSeries(points: ExportPoint[], next: RunSeries | null): void {
    const closing = this.#pumped?.closingPoint(Date.now());
    if (closing) points.push(closing);
    this.#pumped = next;
  }

  /** One last point of run `runName` carrying `named` (a k6 script's metrics, known once the run is over). */
  endOfRun(runName: string, named: NamedSample[]): void {
    const series = this.#byName.get(runName);
    if (series === undefined) return;
    this.#pump();
    const point = series.endPoint(Date.now(), named);
    if (point) this.#hand([point]);
  }

  /** Sends what is left within `limitMs`; what each output sent, dropped and failed. */
  async close(limitMs = FLUSH_LIMIT_MS): Promise<ExportSummary[]> {
    this.#pump(true);
    const deadline = performance.now() + limitMs;
    return await Promise.all(this.#senders.map((s) => s.close(deadline)));
  }
}

/** The labels of a planned run: experiment, variant, load, run, repeat and its sweep values. */
function plannedLabels(experiment: string, run: PlannedRun): Parameters<typeof runLabels>[0] {
  return {
    experiment,
    variant: run.variant,
    load: run.load,
    name: run.name,
    repeat: run.repeat,
    sweeps: [run.sweep, run.sweep2].filter((s) => s !== undefined),
    ...defined({ segment: run.attack.segment }),
  };
}

/** Each process's last CPU and RSS sample (Redis series have neither and are left out). */
function latestTelemetry(series: TelemetrySeries[]): TelemetryGauge[] {
  return series.flatMap((s) => {
    const last = s.samples.at(-1);
    if (s.kind !== "process" || last === undefined) return [];
    return [{ process: s.name, ...defined({ cpuPercent: last.cpuPercent, rssBytes: last.rssBytes }) }];
  });
}

const USER_AGENT = `loadlab/${denoJson.version}`;

type Encoder = (points: ExportPoint[]) => EncodedBatch;

const ENCODERS: Record<MetricsOutKind, Encoder> = {
  "otlp-json": (points) => ({
    body: JSON.stringify(otlpRequest(points, denoJson.version)),
    headers: { "content-type": "application/json", "user-agent": USER_AGENT },
  }),
  otlp: (points) => ({
    body: encodeOtlpRequest(otlpRequest(points, denoJson.version)).slice(),
    headers: { "content-type": "application/x-protobuf", "user-agent": USER_AGENT },
  }),
  "prometheus-remote-write": (points) => ({
    // Snappy's block format (not its framing format), as remote write requires.
    body: snappy.compress(encodeWriteRequest(points).slice()) as Uint8Array<ArrayBuffer>,
    headers: {
      "content-encoding": "snappy",
      "content-type": "application/x-protobuf",
      "x-prometheus-remote-write-version": "0.1.0",
      "user-agent": USER_AGENT,
    },
  }),
};

/** The encoder of the output's kind; a kind without one (a value the flag did not parse) is a bug. */
export function encoderOf(output: MetricsOutput): Encoder {
  const encoder = Object.hasOwn(ENCODERS, output.kind) ? ENCODERS[output.kind] : undefined;
  if (!encoder) {
    throw new Error(
      `metrics output kind "${output.kind}" has no encoder; known: ${Object.keys(ENCODERS).join(", ")}`,
    );
  }
  return encoder;
}

/** `encode` of points whose labels show no secret (results/redact.ts `redactShown`). */
function redacting(encode: Encoder): Encoder {
  const shown = (labels: Record<string, string>) =>
    Object.fromEntries(Object.entries(labels).map(([name, value]) => [name, redactShown(value)]));
  return (points) =>
    encode(points.map((p) => ({
      ...p,
      labels: shown(p.labels),
      endpoints: p.endpoints.map((e) => ({ ...e, name: redactShown(e.name) })),
      ...defined({ named: p.named?.map((n) => ({ ...n, labels: shown(n.labels) })) }),
    })));
}
