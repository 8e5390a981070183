/**
 * @module
 * One run as report.html embeds it (`pageRun`), rounded to keep a 50-run page within its size budget. Pure.
 */
import type { IntervalResult, RunResult, TelemetrySeries } from "../../../results/mod.ts";
import { round3, round4 } from "../../../results/stats.ts";
import { stabilizationText } from "../../../results/conclude/stabilization.ts";
import { crowdOpening } from "../../../results/conclude/planned_connections.ts";
import { servedRps } from "../../../results/conclude/served_rate.ts";
import { successQualifier } from "../../../results/conclude/send_counts.ts";
import { generatorVerdict } from "../../generator_verdict.ts";
import { cacheBypassSentence } from "../../cache_bypass.ts";
import { wsFacts } from "../../terminal/ws.ts";
import { ohaSummary } from "../../terminal/summary.ts";
import { autocannonRows } from "../../terminal/tables.ts";
import { groupSends, groupVerdict } from "./verdict.ts";
import { latencySampled, sampledLatency } from "../../../results/conclude/responses.ts";
import { endpointQualifier, type EndpointRow, shownEndpointRows } from "../../endpoint_rows.ts";
import { decodeHistogram, percentileCurve } from "../../../results/histogram.ts";
import { visibleLine } from "../../../validation/terminal_text.ts";
import { shownChecks } from "../../../results/schema/keys.ts";

/** Times in seconds from the measured start: a list, or an evenly spaced axis (smaller). */
export type TimeAxis = number[] | { startSec: number; stepSec: number; count: number };

/** One run as the page sees it: the results fields minus bulky re-analysis data, intervals as columns. */
export type PageRun = ReturnType<typeof pageRun>;

function timeAxis(timesMs: number[]): TimeAxis {
  const n = timesMs.length;
  const stepMs = n > 1 ? (timesMs[n - 1] - timesMs[0]) / (n - 1) : 0;
  const even = timesMs.every((t, i) => Math.abs(t - (timesMs[0] + i * stepMs)) <= 1);
  if (even) return { startSec: timesMs[0] / 1000 || 0, stepSec: Math.round(stepMs) / 1000, count: n };
  return timesMs.map((t) => Math.round(t) / 1000);
}

function sparse(values: number[]): number[] {
  return values.some((v) => v !== 0) ? values : [];
}

function errorKindColumns(intervals: IntervalResult[]): Record<string, number[]> {
  if (!intervals.every((iv) => iv.errorKinds !== undefined)) return {};
  const kinds = new Set(
    intervals.flatMap((iv) => Object.keys(iv.errorKinds!).filter((k) => iv.errorKinds![k])),
  );
  const out: Record<string, number[]> = {};
  for (const kind of [...kinds].sort()) out[kind] = intervals.map((iv) => iv.errorKinds![kind] ?? 0);
  return out;
}

/** An interval's latency, or null when nothing completed in it: a stall draws as a gap, not a fast dip. */
export function latencyOrGap(iv: IntervalResult, ms: number): number | null {
  return latencySampled(iv) ? round3(ms) : null;
}

/** Per-interval series, one array per field, index-aligned with `t`. */
function columns(intervals: IntervalResult[]) {
  const codes = new Set(intervals.flatMap((iv) => Object.keys(iv.statusCodes)));
  const status: Record<string, number[]> = {};
  for (const code of codes) status[code] = intervals.map((iv) => iv.statusCodes[code] ?? 0);
  return {
    t: timeAxis(intervals.map((iv) => iv.startMs)),
    durSec: (intervals[0]?.durationMs ?? 250) / 1000, // the runner's interval setting
    // Served within the window: the drain folded into the last interval would draw a false spike there.
    rps: intervals.map((iv) => round4(servedRps(iv.requests, iv.drained ?? 0, iv.durationMs / 1000))),
    errors: sparse(intervals.map((iv) => iv.errors)),
    errorKinds: errorKindColumns(intervals), // empty when some interval lacks kinds: the page draws the total
    failedStatus: sparse(intervals.map((iv) => iv.failedStatus)),
    lateSends: sparse(intervals.map((iv) => iv.lateSends)),
    serverBoundSends: sparse(intervals.map((iv) => iv.serverBoundSends ?? 0)),
    p50: intervals.map((iv) => latencyOrGap(iv, iv.p50)),
    p75: intervals.map((iv) => latencyOrGap(iv, iv.p75)),
    p90: intervals.map((iv) => latencyOrGap(iv, iv.p90)),
    p99: intervals.map((iv) => latencyOrGap(iv, iv.p99)),
    mean: intervals.map((iv) => latencyOrGap(iv, iv.mean)),
    inFlight: intervals.map((iv) => iv.inFlight),
    connections: intervals.map((iv) => iv.connections), // open at each interval's end
    status,
  };
}

type Sample = TelemetrySeries["samples"][number];

/** A counter's increase per second since the sample before; none for the first sample. */
function perSec(s: Sample, prev: Sample | undefined, value: number | undefined): number | undefined {
  const dtSec = prev ? (s.tMs - prev.tMs) / 1000 : 0;
  return value !== undefined && prev && dtSec > 0 ? Math.max(0, value) / dtSec : undefined;
}

const mib = (bytes: number | undefined) => bytes === undefined ? undefined : bytes / 1048576;

/** The telemetry columns the page draws, each from a sample and the one before it (for rates). */
const TELEMETRY_COLUMNS = {
  cpuPercent: (s: Sample) => s.cpuPercent,
  rssMiB: (s: Sample) => mib(s.rssBytes),
  runQueueWaitPct: (s: Sample) => s.runQueueWaitPct,
  opsPerSec: (s: Sample) => s.opsPerSec,
  hitsPerSec: (s: Sample, prev?: Sample) => perSec(s, prev, s.hits),
  missesPerSec: (s: Sample, prev?: Sample) => perSec(s, prev, s.misses),
  /** Redis, from the server's side: keyspace hits / (hits + misses) in %, memory, clients, evictions. */
  hitRatioPct: (s: Sample) => {
    const lookups = (s.hits ?? 0) + (s.misses ?? 0);
    return s.hits === undefined || lookups === 0 ? undefined : (s.hits / lookups) * 100;
  },
  usedMemoryMiB: (s: Sample) => mib(s.usedMemoryBytes),
  connectedClients: (s: Sample) => s.connectedClients,
  evictedPerSec: (s: Sample, prev?: Sample) => perSec(s, prev, s.evictedKeys),
  slowlogAdded: (s: Sample) => s.slowlogAdded,
  /** Runtime sampler series: loop delay per tick (ms), heap, GC pause ms per second (all kinds in one). */
  loopP50Ms: (s: Sample) => s.loopP50Ms,
  loopP99Ms: (s: Sample) => s.loopP99Ms,
  loopMaxMs: (s: Sample) => s.loopMaxMs,
  heapMiB: (s: Sample) => mib(s.heapUsedBytes),
  gcMsPerSec: (s: Sample, prev?: Sample) =>
    perSec(s, prev, s.gc ? Object.values(s.gc).reduce((ms, kind) => ms + kind.ms, 0) : undefined),
};

export type TelemetryColumn = keyof typeof TELEMETRY_COLUMNS;

/** One telemetry series column-wise; counters (hits, misses) already turned into per-second rates. */
export type PageTelemetry =
  & Pick<TelemetrySeries, "name" | "kind" | "runtime" | "error">
  & { t: TimeAxis }
  & Partial<Record<TelemetryColumn, Array<number | null>>>;

function telemetryColumns(series: TelemetrySeries): PageTelemetry {
  const ss = series.samples;
  const out: PageTelemetry = { name: series.name, kind: series.kind, t: timeAxis(ss.map((s) => s.tMs)) };
  for (const [key, of] of Object.entries(TELEMETRY_COLUMNS)) {
    const values = ss.map((s, i) => of(s, ss[i - 1]));
    if (values.some((v) => v !== undefined)) {
      out[key as TelemetryColumn] = values.map((v) => (v === undefined ? null : round3(v)));
    }
  }
  if (series.runtime) out.runtime = series.runtime;
  if (series.error) out.error = series.error;
  return out;
}

const percentilePoints = (ps: RunResult["percentiles"]) =>
  ps.map((p): [number, number] => [p.percentile, round4(p.latencyMs)]);

/** One endpoint on the page: its row and [percentile, ms] points of its latency (none without a response). */
export type PageEndpoint = Omit<EndpointRow, "endpoint"> & { percentiles: Array<[number, number]> };

/** The endpoints shown on the page, slowest p99 first, and the line saying how many were left out. */
export function pageEndpoints(run: RunResult): { endpoints: PageEndpoint[]; omitted: string } {
  const { rows, omitted } = shownEndpointRows(run);
  const endpoints = rows.map(({ endpoint, ...row }) => ({
    ...row,
    rps: round4(row.rps),
    percentiles: endpoint.histogramEncoded === null
      ? []
      : percentilePoints(percentileCurve(decodeHistogram(endpoint.histogramEncoded))),
  }));
  return { endpoints, omitted };
}

/** One run for the page; `group` is its overview group (repeats share one). */
export function pageRun(run: RunResult, group: string) {
  const {
    intervals,
    histogramEncoded: _encoded,
    percentiles,
    uncorrectedPercentiles,
    histogram,
    logHistogram,
    telemetry,
    endpoints: _endpoints,
    ...rest
  } = run;
  const bars = (bs: RunResult["histogram"]) =>
    bs.map((b): [number, number, number] => [round4(b.fromMs), round4(b.toMs), b.count]);
  const shown = pageEndpoints(run);
  return {
    ...rest,
    group,
    // Without a response every latency field is NaN (null in the page), shown "–", not "0 ms".
    latencyMs: sampledLatency(run),
    uncorrectedLatencyMs: rest.uncorrectedLatencyMs && sampledLatency(run, rest.uncorrectedLatencyMs),
    percentiles: percentilePoints(percentiles),
    uncorrectedPercentiles: uncorrectedPercentiles ? percentilePoints(uncorrectedPercentiles) : null,
    flows: rest.flows?.map((f) => ({
      ...f,
      steps: f.steps.map((step) => ({ ...step, checks: shownChecks(step.checks) })),
    })),
    ohaText: ohaSummary(run),
    // Log-spaced buckets; the equal-width ones for files written before they existed.
    chartHistogram: bars(logHistogram ?? histogram),
    autocannon: autocannonRows(run),
    iv: columns(intervals),
    telemetry: (telemetry ?? []).map(telemetryColumns),
    endpoints: shown.endpoints,
    endpointNote: endpointQualifier(run),
    endpointsOmitted: shown.omitted,
    generator: generatorVerdict(run),
    stabilization: stabilizationText(run),
    crowdOpenAtMs: crowdOpening(run)?.openAtMs ?? null,
    cacheBypass: cacheBypassSentence(run),
    wsFacts: wsFacts(run),
    verdict: groupVerdict([run]),
    sends: groupSends([run]),
    successQualifier: successQualifier(run),
    // What servers said, each on one line with nothing hidden (the results file keeps it as it came).
    errorMessages: Object.fromEntries(
      Object.entries(run.errorMessages).map(([kind, byMessage]) => [
        kind,
        Object.fromEntries(Object.entries(byMessage ?? {}).map(([message, n]) => [visibleLine(message), n])),
      ]),
    ),
  };
}
