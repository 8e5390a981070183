/**
 * @module
 * The neutral results format every part of loadlab imports: the zod schema of `results.json` with its
 * inferred types, `parseResultsFile` (v1 files upgraded to v2), and the live-progress type shared by the
 * runner and the printer. Pure (no `Deno.*`). The other files of `results/` work on this data (reading
 * and writing files in `io.ts`, thresholds, HDR histograms, merging shards, statistics), so `report/`
 * needs nothing but `results/` to draw a run.
 */
export * from "./schema/results.ts";
export { type ParseOutcome, parseResultsFile } from "./parse.ts";

/** Live numbers of a run in progress, for the progress line (sent a few times a second); not file content. */
export interface AttackProgress {
  elapsedSec: number;
  /** Planned length including warm-up, null when only a count bounds the run. */
  totalSec: number | null;
  requests: number;
  rps: number;
  p99Ms: number;
  errors: number;
}
