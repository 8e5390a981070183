/**
 * @module
 * A `ResultsFile` as the data the page embeds: series column-wise, numbers rounded, and what the
 * browser should not compute (overview rows, changes, sweeps). Pure.
 */
import { exportNote } from "../../../results/export/summary.ts";
import { redactionLine } from "../../../results/redact.ts";
import { redactResults } from "../../../results/redact_results.ts";
import type { ResultsFile } from "../../../results/mod.ts";
import { buildCompare, buildGateRows, type CompareRow, type GateRow } from "../compare.ts";
import type { FailOn } from "../../../results/fail_on.ts";
import { buildFindings, type Finding } from "../../../results/conclude/findings.ts";
import { explainKnees, type KneeExplanation } from "../../../results/conclude/knee/explained.ts";
import { type PageThreshold, pageThresholds } from "./verdict.ts";
import { type PageRun, pageRun } from "./run.ts";
import { buildPageProfiles, type PageProfiles } from "./profiles.ts";
import { quickRanValues } from "../../quick_values.ts";
import {
  buildPhaseComparisons,
  type PageAnalysis,
  pageAnalysis,
  type PhaseComparison,
} from "./experiment.ts";
import {
  buildComparison,
  buildOverview,
  type ComparisonMatrix,
  groupKey,
  type OverviewRow,
} from "./overview.ts";
import { buildSweeps, type PageSweep } from "./sweeps.ts";

/** Everything the page draws. */
export interface PageData {
  createdAt: string;
  environment: ResultsFile["environment"];
  experiment: ResultsFile["experiment"];
  thresholds: PageThreshold[];
  /** The findings block: one sentence per load, flagged runs, the expected directions. */
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

/** Builds the page data; `compare` is a baseline file, `failOn` the rules its gate verdicts apply. */
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

/** "4 shards on 3 hosts (a, b, c)", with the missing segments of a partial merge; null when not split. */
export function shardsLine(results: Pick<ResultsFile, "shards" | "runs">): string | null {
  const shards = results.shards;
  if (shards) {
    const n = shards.shards.length;
    const hosts = shards.hosts.length;
    const line =
      `${n} shard${n === 1 ? "" : "s"} of ${shards.count} on ${hosts} host${hosts === 1 ? "" : "s"} ` +
      `(${shards.hosts.join(", ")}), merged exactly`;
    const late = Math.max(0, ...shards.shards.map((s) => s.lateMs ?? 0));
    return line +
      (shards.partial
        ? `; PARTIAL: segments ${shards.missing.map((i) => `${i}/${shards.count}`).join(", ")} missing`
        : "") +
      (late > 0 ? `; latest start ${late} ms after the shared start` : "") +
      (shards.unaligned ? "; shards did not start together (intervals aligned to the nearest)" : "");
  }
  const segment = results.runs.find((r) => r.segment)?.segment;
  if (!segment) return null;
  return `segment ${segment.index}/${segment.count} only: one shard of a split load; ` +
    "merge the shards first (loadlab merge shard-*.json -o results.json)";
}
