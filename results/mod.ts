/**
 * @module
 * The neutral results format every part of loadlab imports: the schema of `results.json`, its types,
 * `parseResultsFile`, and the live-progress type. Pure.
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
  /** In a run of several endpoints, the busiest (at most 3) by responses a second over the last second. */
  endpoints?: Array<{ name: string; rps: number }>;
}
