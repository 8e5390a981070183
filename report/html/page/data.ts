/**
 * @module
 * A `ResultsFile` as the page's data, with what the browser should not compute (overview rows, sweeps). Pure.
 */
import { exportNote } from "../../../results/export/summary.ts";
import { redactionLine } from "../../../results/redact.ts";
import { redactResults } from "../../../results/redact_results.ts";
import type { ResultsFile } from "../../../results/mod.ts";
import { buildCompare, buildGateRows } from "../compare.ts";
import type { FailOn } from "../../../results/fail_on.ts";
import { buildFindings } from "../../../results/conclude/findings.ts";
import { explainKnees } from "../../../results/conclude/knee/explained.ts";
import { pageThresholds } from "./verdict.ts";
import { pageRun } from "./run.ts";
import { buildPageProfiles } from "./profiles.ts";
import { quickRanNote } from "../../quick_values.ts";
import { buildPhaseComparisons, pageAnalysis } from "./experiment.ts";
import { buildComparison, buildOverview, groupKey } from "./overview.ts";
import { buildSweeps } from "./sweeps.ts";

export type PageData = ReturnType<typeof buildPageData>;

/** Builds the page data; `compare` is a baseline file, `failOn` the rules its gate verdicts apply. */
export function buildPageData(
  shown: ResultsFile,
  shownCompare?: ResultsFile,
  opts: { keepSecrets?: boolean; failOn?: FailOn[] } = {},
) {
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
    quickNote: quickRanNote(results),
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
