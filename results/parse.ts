/**
 * @module
 * Validates a `results.json` read back from disk, naming the first bad path. Pure.
 */
import { validate } from "../validation/mod.ts";
import { type ResultsFile, resultsFileSchema } from "./schema/results.ts";

/** Outcome of validating untrusted JSON: the results, or one line saying where and what is wrong. */
export type ParseOutcome = { ok: true; results: ResultsFile } | { ok: false; problem: string };

/** Validates parsed JSON as a results file (v1 or v2), upgrading it to v2. */
export function parseResultsFile(data: unknown): ParseOutcome {
  const parsed = validate(resultsFileSchema, data);
  if (parsed.ok) return { ok: true, results: parsed.data };
  const [first, ...rest] = parsed.issues;
  const more = rest.length > 0 ? ` (and ${rest.length} more problems)` : "";
  return { ok: false, problem: `${first.path}: ${first.message}${more}` };
}
