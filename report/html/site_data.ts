/**
 * @module
 * The data a page of `loadlab site` embeds (`SiteEntry`, `SiteNav`). Types only.
 */
import type { CompareRow } from "./compare.ts";

/** One row of the index. */
export interface SiteEntry {
  id: string;
  name: string;
  description: string | null;
  createdAt: string;
  gitCommit: string | null;
  runs: number;
  thresholdsPassed: number;
  thresholdsFailed: number;
  rps: number[];
  complete: boolean | null;
  /** Run with `--quick` (shorter runs of the same shape): its numbers are not the full study's. */
  quick: boolean;
  /** `--out` outputs' kinds and counts (no URL: the index is not redacted); null without `--out`. */
  metricsOut: { outputs: string; undelivered: number } | null;
}

/** What every site page embeds as `#loadlab-site`: where it is and what it can link to. */
export interface SiteNav {
  /** Path from this page to the site's root folder: "" for the index, "../" for a report page. */
  root: string;
  experiments: Array<{ id: string; name: string; createdAt: string; quick: boolean }>;
  /** The experiment this page shows (the candidate of a comparison); null on the index. */
  current: string | null;
  /** `report --compare` rows of this page's experiment against each other one, by baseline id. */
  compares: Record<string, CompareRow[]>;
}
