/**
 * @module
 * The results format every part imports: schema, types, `parseResultsFile` and its size cap, progress. Pure.
 */
import { validate } from "../validation/mod.ts";
import { type ResultsFile, resultsFileSchema } from "./schema/results.ts";
export * from "./schema/results.ts";

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

/** A results file that could not be used; the message is one line naming the file. */
export class ResultsFileError extends Error {
  override name = "ResultsFileError";
}

/** The largest results file read: an hour-long run writes 10-14 MB; a wrong file is refused unread. */
export const MAX_RESULTS_FILE_BYTES = 256 * 2 ** 20;

/** Outcome of validating untrusted JSON: the results, or one line saying where and what is wrong. */
type ParseOutcome = { ok: true; results: ResultsFile } | { ok: false; problem: string };

/** Validates parsed JSON as a results file (v1 to v3, read as v3); a newer schema is refused. */
export function parseResultsFile(data: unknown): ParseOutcome {
  const schema = (data as { schema?: unknown } | null)?.schema;
  const version = typeof schema === "string" ? /^loadlab\.results\/v(\d+)$/.exec(schema)?.[1] : undefined;
  if (Number(version) > 3) {
    const problem = `schema: "${schema}" is a newer loadlab's; this one reads v1 to v3: upgrade loadlab`;
    return { ok: false, problem };
  }
  const parsed = validate(resultsFileSchema, data);
  if (parsed.ok) return { ok: true, results: parsed.data };
  const [first, ...rest] = parsed.issues;
  const more = rest.length > 0 ? ` (and ${rest.length} more problems)` : "";
  return { ok: false, problem: `${first.path}: ${first.message}${more}` };
}
