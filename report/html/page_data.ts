/**
 * @module
 * Turns a `ResultsFile` into the data the page embeds: the same runs, but with per-interval series
 * stored column-wise and numbers rounded to 4 significant digits (an object per 250 ms interval would
 * put a 50-run, one-minute-per-run experiment well past the 1.5 MB budget), plus what the browser
 * should not have to compute: overview rows with repeat means and CIs, baseline changes, comparison
 * matrices and sweeps with their knees. Pure; the page only draws what this returns.
 */
import { shardsLine } from "../shards_line.ts";
import type {
  IntervalResult,
  LatencySummaryMs,
  ResultsFile,
  RunResult,
  TelemetrySeries,
} from "../../results/mod.ts";
import {
  changePct,
  findKnee,
  type MeanCi,
  meanCi,
  round3,
  round4,
  type SweepPoint,
} from "../../results/stats.ts";
import { buildCompare, type CompareRow } from "./compare.ts";
import {
  buildPhaseComparisons,
  type PageAnalysis,
  pageAnalysis,
  type PhaseComparison,
  storedComparison,
  storedKnee,
} from "./page_experiment.ts";

/**
 * Times in seconds from the measured start: a list, or (the usual case, and much smaller) an evenly
 * spaced axis of `count` points from `startSec`.
 */
export type TimeAxis = number[] | { startSec: number; stepSec: number; count: number };

/** Per-interval series, one array per field, index-aligned with `t`. */
export interface IntervalColumns {
  t: TimeAxis;
  /** Duration of one interval in seconds (the runner's interval setting). */
  durSec: number;
  rps: number[];
  errors: number[];
  non2xx: number[];
  lateSends: number[];
  p50: number[];
  p75: number[];
  p90: number[];
  p99: number[];
  mean: number[];
  inFlight: number[];
  status: Record<string, number[]>;
}

/** One telemetry series column-wise; counters (hits, misses) already turned into per-second rates. */
export interface PageTelemetry {
  name: string;
  kind: "process" | "redis";
  t: TimeAxis;
  cpuPercent?: Array<number | null>;
  rssMiB?: Array<number | null>;
  opsPerSec?: Array<number | null>;
  hitsPerSec?: Array<number | null>;
  missesPerSec?: Array<number | null>;
}

/** `Omit` that keeps the known keys of results types (their index signature passes unknown keys through). */
type Without<T, K extends PropertyKey> = { [P in keyof T as P extends K ? never : P]: T[P] };

/** One run as the page sees it: the results fields minus bulky re-analysis data, intervals as columns. */
export type PageRun =
  & Without<
    RunResult,
    | "intervals"
    | "histogramEncoded"
    | "percentiles"
    | "uncorrectedPercentiles"
    | "histogram"
    | "logHistogram"
    | "telemetry"
  >
  & {
    group: string;
    percentiles: Array<[number, number]>;
    uncorrectedPercentiles: Array<[number, number]> | null;
    /** oha-style equal-width buckets [fromMs, toMs, count] (the oha table). */
    histogram: Array<[number, number, number]>;
    /** Log-spaced buckets for the chart; the equal-width ones for files written before they existed. */
    chartHistogram: Array<[number, number, number]>;
    iv: IntervalColumns;
    telemetry: PageTelemetry[];
  };

/** The overview metrics, each a mean over repeats with its CI (n = 1 without repeats). */
export const OVERVIEW_METRICS = [
  "rps",
  "mean",
  "p50",
  "p90",
  "p99",
  "p999",
  "max",
  "success",
  "errors",
  "lateSends",
] as const;
export type OverviewMetric = typeof OVERVIEW_METRICS[number];

/** One row of the overview: a run, or the repeats of one variant × load × sweep point. */
export interface OverviewRow {
  key: string;
  label: string;
  variant: string | null;
  load: string | null;
  model: string;
  runs: string[];
  metrics: Record<OverviewMetric, MeanCi>;
  /** Change in % against the baseline variant's row with the same load and sweep point. */
  changePct: Partial<Record<OverviewMetric, number>> | null;
  /** The stored analysis' verdict per compared metric (rps, p50, p99, success); null without one. */
  beyondNoise: Partial<Record<OverviewMetric, boolean>> | null;
}

/** A grouped bar chart: one label per load (or row), one series per variant. */
export interface ComparisonMatrix {
  labels: string[];
  series: Array<{ name: string; rows: Array<string | null> }>;
}

/** One sweep curve: a variant's runs over a swept parameter. */
export interface PageSweep {
  title: string;
  parameter: string;
  isRate: boolean;
  points: SweepPoint[];
  knee: number | null;
  /** Why the knee is where it is (from the stored analysis), null when the page found it itself. */
  kneeReason: string | null;
}

/** Everything the page draws. */
export interface PageData {
  createdAt: string;
  environment: ResultsFile["environment"];
  experiment: ResultsFile["experiment"];
  thresholds: ResultsFile["thresholds"];
  runs: PageRun[];
  overview: OverviewRow[];
  comparison: ComparisonMatrix;
  sweeps: PageSweep[];
  compare: CompareRow[] | null;
  compareName: string | null;
  /** The stored analysis (noise rule, capacity searches), null in files without one. */
  analysis: PageAnalysis | null;
  /** Per-phase mean, p99 and success across variants, for loads with phases. */
  phaseComparisons: PhaseComparison[];
  /** How many shards on how many hosts made a merged file, or that a file is one shard; null otherwise. */
  shards: string | null;
}

const r4 = round4;

/** Stores evenly spaced times (within 1 ms) as start and step instead of a list. */
export function timeAxis(timesMs: number[]): TimeAxis {
  const n = timesMs.length;
  const stepMs = n > 1 ? (timesMs[n - 1] - timesMs[0]) / (n - 1) : 0;
  const even = timesMs.every((t, i) => Math.abs(t - (timesMs[0] + i * stepMs)) <= 1);
  if (even) return { startSec: timesMs[0] / 1000 || 0, stepSec: Math.round(stepMs) / 1000, count: n };
  return timesMs.map((t) => Math.round(t) / 1000);
}

function metricOf(run: RunResult, m: OverviewMetric): number {
  const l: LatencySummaryMs = run.latencyMs;
  switch (m) {
    case "rps":
      return run.rps;
    case "success":
      return run.successRate * 100;
    case "errors":
      return Object.values(run.errors).reduce((a, b) => a + (b ?? 0), 0);
    case "lateSends":
      return run.lateSends;
    default:
      return l[m];
  }
}

/** Repeats share a group; a run without a repeat index is its own group. */
export function groupKey(run: RunResult): string {
  if (run.repeat === undefined) return `run:${run.name}`;
  const sweep = run.sweep ? `${run.sweep.parameter}=${run.sweep.value}` : "";
  if (run.variant !== undefined || run.load !== undefined || sweep) {
    return `g:${run.variant ?? ""}|${run.load ?? ""}|${sweep}`;
  }
  return `u:${run.model}|${run.url}`;
}

function groupLabel(run: RunResult): string {
  if (run.repeat === undefined) return run.name;
  const parts = [run.variant, run.load].filter((p): p is string => p !== undefined);
  if (run.sweep) parts.push(`${run.sweep.parameter}=${run.sweep.value}`);
  return parts.length ? parts.join(" / ") : run.name.replace(/[#/ ._-]*r?\d+$/, "");
}

function buildOverview(results: ResultsFile): OverviewRow[] {
  const byKey = new Map<string, RunResult[]>();
  // Capacity-search probes are short runs at many values: the search section shows them.
  for (const run of results.runs.filter((r) => !r.probe)) {
    const key = groupKey(run);
    byKey.set(key, [...(byKey.get(key) ?? []), run]);
  }
  const rows: OverviewRow[] = [...byKey.entries()].map(([key, runs]) => {
    const metrics = {} as Record<OverviewMetric, MeanCi>;
    for (const m of OVERVIEW_METRICS) metrics[m] = meanCi(runs.map((r) => metricOf(r, m)));
    return {
      key,
      label: groupLabel(runs[0]),
      variant: runs[0].variant ?? null,
      load: runs[0].load ?? null,
      model: runs[0].model,
      runs: runs.map((r) => r.name),
      metrics,
      changePct: null,
      beyondNoise: null,
    };
  });
  const baseline = results.experiment.baseline;
  if (results.analysis) return withStoredComparisons(rows, results);
  if (baseline === undefined) return rows;
  const sweepOf = (row: OverviewRow) => results.runs.find((r) => r.name === row.runs[0])?.sweep?.value;
  for (const row of rows) {
    if (row.variant === null || row.variant === baseline) continue;
    const base = rows.find((b) =>
      b.variant === baseline && b.load === row.load && sweepOf(b) === sweepOf(row)
    );
    if (!base) continue;
    row.changePct = {};
    for (const m of OVERVIEW_METRICS) {
      row.changePct[m] = r4(changePct(base.metrics[m].mean, row.metrics[m].mean));
    }
  }
  return rows;
}

/** Changes and verdicts as `loadlab run` stored them (the same change in %, plus beyond-noise). */
function withStoredComparisons(rows: OverviewRow[], results: ResultsFile): OverviewRow[] {
  for (const row of rows) {
    const stored = storedComparison(results.analysis, row.runs[0]);
    if (!stored) continue;
    row.changePct = stored.changePct;
    row.beyondNoise = stored.beyondNoise;
  }
  return rows;
}

function buildComparison(rows: OverviewRow[]): ComparisonMatrix {
  const unswept = rows.filter((r) => !r.key.includes("="));
  const source = unswept.length ? unswept : rows;
  const hasMatrix = source.some((r) => r.variant !== null) && source.some((r) => r.load !== null);
  if (!hasMatrix) {
    return { labels: source.map((r) => r.label), series: [{ name: "runs", rows: source.map((r) => r.key) }] };
  }
  const labels = [...new Set(source.map((r) => r.load ?? "(none)"))];
  const variants = [...new Set(source.map((r) => r.variant ?? "(none)"))];
  return {
    labels,
    series: variants.map((v) => ({
      name: v,
      rows: labels.map((l) =>
        source.find((r) => (r.variant ?? "(none)") === v && (r.load ?? "(none)") === l)?.key ?? null
      ),
    })),
  };
}

function buildSweeps(results: ResultsFile): PageSweep[] {
  const byCurve = new Map<string, RunResult[]>();
  for (const run of results.runs) {
    if (!run.sweep || run.probe) continue;
    const second = run.sweep2 ? `${run.sweep2.parameter}=${run.sweep2.value}` : "";
    const key = [run.variant, run.load, run.sweep.parameter, second].join("\u0000");
    byCurve.set(key, [...(byCurve.get(key) ?? []), run]);
  }
  return [...byCurve.values()].map((runs) => {
    const parameter = runs[0].sweep!.parameter;
    const values = [...new Set(runs.map((r) => r.sweep!.value))].sort((a, b) => a - b);
    const points = values.map((x): SweepPoint => {
      const at = runs.filter((r) => r.sweep!.value === x);
      const target = meanCi(at.map((r) => r.targetRps ?? Number.NaN));
      return {
        x,
        rps: r4(meanCi(at.map((r) => r.rps)).mean),
        p99Ms: r4(meanCi(at.map((r) => r.latencyMs.p99)).mean),
        targetRps: target.n ? r4(target.mean) : null,
      };
    });
    const isRate = /(^|\.)(rate|ratePerSec|requestedRate)$/i.test(parameter);
    const where = [runs[0].variant, runs[0].load].filter((p) => p !== undefined).join("/");
    const second = runs[0].sweep2 ? ` at ${runs[0].sweep2.parameter}=${runs[0].sweep2.value}` : "";
    const title = (where ? `${where}: ${parameter}` : parameter) + second;
    const stored = storedKnee(results.analysis, runs[0]);
    if (stored === undefined) {
      return { title, parameter, isRate, points, knee: findKnee(points, isRate), kneeReason: null };
    }
    const knee = points.findIndex((p) => p.x === stored.value);
    return { title, parameter, isRate, points, knee: knee === -1 ? null : knee, kneeReason: stored.reason };
  });
}

/** An all-zero column is stored empty (the page treats missing values as zero). */
function sparse(values: number[]): number[] {
  return values.some((v) => v !== 0) ? values : [];
}

function columns(intervals: IntervalResult[]): IntervalColumns {
  const codes = new Set(intervals.flatMap((iv) => Object.keys(iv.statusCodes)));
  const status: Record<string, number[]> = {};
  for (const code of codes) status[code] = intervals.map((iv) => iv.statusCodes[code] ?? 0);
  return {
    t: timeAxis(intervals.map((iv) => iv.startMs)),
    durSec: (intervals[0]?.durationMs ?? 250) / 1000,
    rps: intervals.map((iv) => r4(iv.requests / (iv.durationMs / 1000))),
    errors: sparse(intervals.map((iv) => iv.errors)),
    non2xx: sparse(intervals.map((iv) => iv.non2xx)),
    lateSends: sparse(intervals.map((iv) => iv.lateSends)),
    p50: intervals.map((iv) => round3(iv.p50)),
    p75: intervals.map((iv) => round3(iv.p75)),
    p90: intervals.map((iv) => round3(iv.p90)),
    p99: intervals.map((iv) => round3(iv.p99)),
    mean: intervals.map((iv) => round3(iv.mean)),
    inFlight: intervals.map((iv) => iv.inFlight),
    status,
  };
}

function telemetryColumns(series: TelemetrySeries): PageTelemetry {
  const ss = series.samples;
  const out: PageTelemetry = { name: series.name, kind: series.kind, t: timeAxis(ss.map((s) => s.tMs)) };
  const col = (f: (s: TelemetrySeries["samples"][number], i: number) => number | undefined) => {
    const values = ss.map(f);
    return values.some((v) => v !== undefined)
      ? values.map((v) => (v === undefined ? null : round3(v)))
      : undefined;
  };
  const rate = (key: "hits" | "misses") =>
    col((s, i) => {
      const prev = ss[i - 1];
      if (!prev || s[key] === undefined || prev[key] === undefined) return undefined;
      const dtSec = (s.tMs - prev.tMs) / 1000;
      return dtSec > 0 ? Math.max(0, s[key]! - prev[key]!) / dtSec : undefined;
    });
  const columns = {
    cpuPercent: col((s) => s.cpuPercent),
    rssMiB: col((s) => (s.rssBytes === undefined ? undefined : s.rssBytes / 1048576)),
    opsPerSec: col((s) => s.opsPerSec),
    hitsPerSec: rate("hits"),
    missesPerSec: rate("misses"),
  };
  for (const [k, v] of Object.entries(columns)) if (v) out[k as keyof typeof columns] = v;
  return out;
}

function pageRun(run: RunResult): PageRun {
  const {
    intervals,
    histogramEncoded: _encoded,
    percentiles,
    uncorrectedPercentiles,
    histogram,
    logHistogram,
    telemetry,
    ...rest
  } = run;
  const bars = (bs: RunResult["histogram"]) =>
    bs.map((b): [number, number, number] => [r4(b.fromMs), r4(b.toMs), b.count]);
  const points = (ps: RunResult["percentiles"]) =>
    ps.map((p): [number, number] => [p.percentile, r4(p.latencyMs)]);
  return {
    ...rest,
    group: groupKey(run),
    percentiles: points(percentiles),
    uncorrectedPercentiles: uncorrectedPercentiles ? points(uncorrectedPercentiles) : null,
    histogram: bars(histogram),
    chartHistogram: bars(logHistogram ?? histogram),
    iv: columns(intervals),
    telemetry: (telemetry ?? []).map(telemetryColumns),
  };
}

/** Builds the page data; `compare` is a baseline results file for the before/after view. */
export function buildPageData(results: ResultsFile, compare?: ResultsFile): PageData {
  const overview = buildOverview(results);
  return {
    createdAt: results.createdAt,
    environment: results.environment,
    experiment: results.experiment,
    thresholds: results.thresholds,
    runs: results.runs.map(pageRun),
    overview,
    comparison: buildComparison(overview),
    sweeps: buildSweeps(results),
    compare: compare ? buildCompare(compare, results) : null,
    compareName: compare ? compare.experiment.name : null,
    analysis: pageAnalysis(results),
    phaseComparisons: buildPhaseComparisons(results.runs),
    shards: shardsLine(results),
  };
}
