/**
 * @module
 * Turns a `ResultsFile` into the data the page embeds: the same runs, but with per-interval series
 * stored column-wise and numbers rounded to 4 significant digits (report/html/page_run.ts; an object
 * per 250 ms interval would put a 50-run, one-minute-per-run experiment well past the 1.5 MB budget),
 * plus what the browser should not have to compute: overview rows with repeat means and CIs, baseline
 * changes, comparison matrices and sweeps with their knees. Pure; the page only draws what this returns.
 */
import { shardsLine } from "../shards_line.ts";
import { exportNote } from "../../results/export/summary.ts";
import { protocolTag } from "../../results/text_format.ts";
import { redactionLine, redactResults } from "../../results/redact.ts";
import type { LatencySummaryMs, ResultsFile, RunResult } from "../../results/mod.ts";
import {
  changePct,
  curveAxes,
  isCategorical,
  type MeanCi,
  meanCi,
  orderedSweepValues,
  round4,
  type SweepPoint,
} from "../../results/stats.ts";
import { buildCompare, buildGateRows, type CompareRow, type GateRow } from "./compare.ts";
import type { FailOn } from "../../results/fail_on.ts";
import { buildFindings, type Finding } from "../../results/conclude/findings.ts";
import { explainKnees, type KneeExplanation } from "../../results/conclude/knee_explained.ts";
import { analyze } from "../../results/conclude/analysis.ts";
import {
  groupSends,
  groupVerdict,
  type OverviewSends,
  type PageThreshold,
  pageThresholds,
} from "./page_verdict.ts";
import { type PageRun, pageRun } from "./page_run.ts";
import { sampledLatency } from "../../results/conclude/responses.ts";
import { buildPageProfiles, type PageProfiles } from "./page_profiles.ts";
import { quickRanValues } from "../quick_values.ts";
import {
  buildPhaseComparisons,
  type PageAnalysis,
  pageAnalysis,
  type PhaseComparison,
  storedComparison,
  storedKnee,
} from "./page_experiment.ts";

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
  /**
   * The run verdict (results/conclude/run_verdict.ts): "ok", or each flagged run's label (with its name in
   * a group).
   */
  verdict: string;
  /** Open and throughput models: requested rate, sends made and dropped (summed over repeats); else null. */
  sends: OverviewSends | null;
  /** Requests the run's own stop cut (`unfinished`, summed over repeats): shown, never failures. */
  unfinished?: number;
}

/** A grouped bar chart: one label per load and sweep point (or per row), one series per variant. */
export interface ComparisonMatrix {
  labels: string[];
  series: Array<{ name: string; rows: Array<string | null> }>;
}

/** One sweep curve: a variant's runs over a swept parameter. */
export interface PageSweep {
  title: string;
  parameter: string;
  isRate: boolean;
  /** Words (`load.protocol`: http1, h2): drawn as categories in the file's order, with no knee. */
  categorical: boolean;
  points: SweepPoint[];
  knee: number | null;
  /** Why the knee is where it is (from the stored analysis), null when the page found it itself. */
  kneeReason: string | null;
  /** One table row per point, index-aligned with `points`: what was asked and sent beside what came back. */
  rows: PageSweepRow[];
}

/** A sweep point as the sweep table lists it: requested, sent and dropped beside achieved, and the verdict. */
export interface PageSweepRow {
  x: number | string;
  /** Open and throughput models: requested rate, sends made and dropped (over repeats); else null. */
  sends: OverviewSends | null;
  rps: number;
  p99Ms: number;
  /** The point's run verdict ("ok", or the flagged runs' labels). */
  verdict: string;
}

/** Everything the page draws. */
export interface PageData {
  createdAt: string;
  environment: ResultsFile["environment"];
  experiment: ResultsFile["experiment"];
  thresholds: PageThreshold[];
  /** The findings block (results/conclude/findings.ts): one sentence per load, flagged runs, the expected directions. */
  findings: Finding[];
  /** Under --quick, the durations, rates and timeouts each load actually ran (report/quick_values.ts). */
  quickValues: string | null;
  runs: PageRun[];
  overview: OverviewRow[];
  comparison: ComparisonMatrix;
  sweeps: PageSweep[];
  compare: CompareRow[] | null;
  compareName: string | null;
  /** The `--baseline` gate's verdicts by run group; null without a baseline. */
  gate: GateRow[] | null;
  /** The stored analysis (noise rule, capacity searches), null in files without one. */
  analysis: PageAnalysis | null;
  /** Per-phase mean, p99 and success across variants, for loads with phases. */
  phaseComparisons: PhaseComparison[];
  /** Each stored knee and capacity search: the telemetry below beside above, and what saturated. */
  knees: KneeExplanation[];
  /** How many shards on how many hosts made a merged file, or that a file is one shard; null otherwise. */
  shards: string | null;
  /** "3 secrets redacted: Authorization header, URL password"; null when none were. */
  redaction: string | null;
  /** CPU profiles to diff and what profiling costs; absent or null when no run was profiled. */
  profiles?: PageProfiles | null;
  /** What each `--out` metrics output sent, qualified when points were not delivered; null without one. */
  metricsOut: string | null;
}

const r4 = round4;

function metricOf(run: RunResult, m: OverviewMetric): number {
  // NaN without a response: no sample, so the cell shows "–" and the mean over repeats leaves it out.
  const l: LatencySummaryMs = sampledLatency(run);
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
  const protocol = protocolTag(run);
  return protocol === "" ? plainGroupLabel(run) : `${plainGroupLabel(run)} [${protocol}]`;
}

function plainGroupLabel(run: RunResult): string {
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
      // A number shown carries what qualifies it: the profiler's cost is in these runs' numbers.
      label: groupLabel(runs[0]) + (runs.some((r) => r.profiles?.length) ? " (profiled)" : ""),
      variant: runs[0].variant ?? null,
      load: runs[0].load ?? null,
      model: runs[0].model,
      runs: runs.map((r) => r.name),
      metrics,
      changePct: null,
      beyondNoise: null,
      verdict: groupVerdict(runs),
      sends: groupSends(runs),
      unfinished: runs.reduce((a, r) => a + (r.unfinished ?? 0), 0),
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

/** A run's sweep point as the reader set it (`concurrency=200`, both parameters of a 2-D sweep); "" outside. */
export function sweepPointLabel(run: RunResult | undefined): string {
  if (!run?.sweep) return "";
  const second = run.sweep2 ? `, ${run.sweep2.parameter}=${run.sweep2.value}` : "";
  return `${run.sweep.parameter}=${run.sweep.value}${second}`;
}

/**
 * Variants (series) against every load × sweep point (labels, sorted by load in run order, then by sweep
 * value), so a sweep is never shown at one of its points only; a plain list of runs when there are no
 * variants or nothing to put on x.
 */
function buildComparison(rows: OverviewRow[], runs: RunResult[]): ComparisonMatrix {
  const byName = new Map(runs.map((r) => [r.name, r]));
  const loads = [...new Set(rows.map((r) => r.load))];
  // Numbers by value; words (a categorical sweep) by their place in the file, after the numbers.
  const words = [...new Set(runs.flatMap((r) => [r.sweep?.value, r.sweep2?.value]))]
    .filter((v) => typeof v === "string");
  const rank = (v: number | string | undefined, none: number) =>
    v === undefined ? none : typeof v === "number" ? v : 2 ** 52 + words.indexOf(v);
  const placed = rows.map((row) => {
    const run = byName.get(row.runs[0]);
    const label = [row.load, sweepPointLabel(run)].filter((p) => p).join(" · ");
    const sweep = [rank(run?.sweep?.value, Infinity), rank(run?.sweep2?.value, 0)];
    return { row, label, order: [loads.indexOf(row.load), ...sweep] };
  });
  const hasMatrix = rows.some((r) => r.variant !== null) && placed.some((p) => p.label !== "");
  if (!hasMatrix) {
    return { labels: rows.map((r) => r.label), series: [{ name: "runs", rows: rows.map((r) => r.key) }] };
  }
  placed.sort((a, b) => a.order[0] - b.order[0] || a.order[1] - b.order[1] || a.order[2] - b.order[2]);
  const labels = [...new Set(placed.map((p) => p.label || "(none)"))];
  const variants = [...new Set(rows.map((r) => r.variant ?? "(none)"))];
  return {
    labels,
    series: variants.map((v) => ({
      name: v,
      rows: labels.map((l) =>
        placed.find((p) => (p.row.variant ?? "(none)") === v && (p.label || "(none)") === l)?.row.key ?? null
      ),
    })),
  };
}

function buildSweeps(results: ResultsFile): PageSweep[] {
  const analysis = results.analysis ?? analyze(results.runs);
  const byCurve = new Map<string, RunResult[]>();
  for (const run of results.runs) {
    const axes = curveAxes(run);
    if (!axes || run.probe) continue;
    const at = axes.at ? `${axes.at.parameter}=${axes.at.value}` : "";
    const key = [run.variant, run.load, axes.axis.parameter, at].join("\u0000");
    byCurve.set(key, [...(byCurve.get(key) ?? []), run]);
  }
  return [...byCurve.values()].map((runs) => {
    const axes = curveAxes(runs[0])!;
    const parameter = axes.axis.parameter;
    const xOf = (r: RunResult) => curveAxes(r)!.axis.value;
    const values = orderedSweepValues(runs.map(xOf));
    const points = values.map((x): SweepPoint => {
      const at = runs.filter((r) => xOf(r) === x);
      const target = meanCi(at.map((r) => r.targetRps ?? Number.NaN));
      return {
        x,
        rps: r4(meanCi(at.map((r) => r.rps)).mean),
        p99Ms: r4(meanCi(at.map((r) => sampledLatency(r).p99)).mean),
        targetRps: target.n ? r4(target.mean) : null,
      };
    });
    const rows = points.map((p): PageSweepRow => {
      const at = runs.filter((r) => xOf(r) === p.x);
      return { x: p.x, sends: groupSends(at), rps: p.rps, p99Ms: p.p99Ms, verdict: groupVerdict(at) };
    });
    const isRate = /(^|\.)(rate|ratePerSec|requestedRate)$/i.test(parameter);
    const categorical = isCategorical(values);
    const where = [runs[0].variant, runs[0].load].filter((p) => p !== undefined).join("/");
    const second = axes.at ? ` at ${axes.at.parameter}=${axes.at.value}` : "";
    const title = (where ? `${where}: ${parameter}` : parameter) + second;
    // A file with no stored analysis (merged, older) gets the knees the findings' rule finds.
    const stored = storedKnee(analysis, runs[0]);
    if (stored === undefined) {
      return { title, parameter, isRate, categorical, points, knee: null, kneeReason: null, rows };
    }
    const knee = points.findIndex((p) => p.x === stored.value);
    return {
      title,
      parameter,
      isRate,
      categorical,
      points,
      knee: knee === -1 ? null : knee,
      kneeReason: stored.reason,
      rows,
    };
  });
}

/**
 * Builds the page data; `compare` is a baseline results file for the before/after view, `failOn` the
 * `--fail-on` rules its gate verdicts apply.
 */
export function buildPageData(
  shown: ResultsFile,
  shownCompare?: ResultsFile,
  opts: { keepSecrets?: boolean; failOn?: FailOn[] } = {},
): PageData {
  // Redacted here, the one door to every page (report, site, live dashboard): old files included.
  const results = opts.keepSecrets ? shown : redactResults(shown);
  const compare = shownCompare && !opts.keepSecrets ? redactResults(shownCompare) : shownCompare;
  const overview = buildOverview(results);
  return {
    createdAt: results.createdAt,
    environment: results.environment,
    experiment: results.experiment,
    thresholds: pageThresholds(results),
    findings: buildFindings(results),
    quickValues: quickRanValues(results),
    runs: results.runs.map((run) => pageRun(run, groupKey(run))),
    overview,
    comparison: buildComparison(overview, results.runs),
    sweeps: buildSweeps(results),
    compare: compare ? buildCompare(compare, results) : null,
    compareName: compare ? compare.experiment.name : null,
    gate: compare ? buildGateRows(compare, results, opts.failOn ?? []) : null,
    analysis: pageAnalysis(results),
    phaseComparisons: buildPhaseComparisons(results.runs),
    knees: explainKnees(results),
    shards: shardsLine(results),
    redaction: redactionLine(results.redaction),
    profiles: buildPageProfiles(results),
    metricsOut: exportNote(results.export),
  };
}
