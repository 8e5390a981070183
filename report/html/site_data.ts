/**
 * @module
 * What a `loadlab site` page embeds, pure: the index's rows (`siteEntries`), its place and links (`SiteNav`).
 */
import type { ResultsFile } from "../../results/mod.ts";
import { undelivered } from "../../results/export/summary.ts";
import type { CompareRow } from "./compare.ts";

/** One results file of the site; `id` is unique, made of letters, digits, `.`, `_` and `-`. */
export interface SiteExperiment {
  id: string;
  results: ResultsFile;
}

export type SiteEntry = ReturnType<typeof siteEntries>[number];

/** Index rows, newest first. */
export function siteEntries(experiments: SiteExperiment[]) {
  return experiments.map(({ id, results: r }) => ({
    id,
    name: r.experiment.name,
    description: r.experiment.description ?? null,
    createdAt: r.createdAt,
    gitCommit: r.environment.gitCommit ?? null,
    runs: r.runs.length,
    thresholdsPassed: r.thresholds.filter((t) => t.ok).length,
    thresholdsFailed: r.thresholds.filter((t) => !t.ok).length,
    rps: r.runs.map((run) => Math.round(run.rps * 10) / 10),
    complete: r.complete ?? null,
    /** Run with `--quick` (shorter runs of the same shape): its numbers are not the full study's. */
    quick: r.experiment.quick === true,
    /** `--out` outputs' kinds and counts (no URL: the index is not redacted); null without `--out`. */
    metricsOut: r.export?.length
      ? {
        outputs: r.export.map((s) => `${s.kind}: ${s.intervalsSent} sent, ${undelivered(s)} not delivered`)
          .join("; "),
        undelivered: r.export.reduce((n, s) => n + undelivered(s), 0),
      }
      : null,
  })).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** What every site page embeds as `#loadlab-site`: where it is and what it can link to. */
export interface SiteNav {
  /** Path from this page to the site's root folder: "" for the index, "../" for a report page. */
  root: string;
  experiments: Array<Pick<SiteEntry, "id" | "name" | "createdAt" | "quick">>;
  /** The experiment this page shows (the candidate of a comparison); null on the index. */
  current: string | null;
  /** `report --compare` rows of this page's experiment against each other one, by baseline id. */
  compares: Record<string, CompareRow[]>;
}
