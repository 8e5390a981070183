/**
 * @module
 * Validates a `results.json` read back from disk (already parsed from JSON) before anything uses it. Pure:
 * the report calls it without touching `Deno.*`. A v1 file comes back as v2 (the schema accepts both
 * tags; v2 only added optional fields). The problem names the first bad path and what it expected (worded
 * by the one issue formatter, `validation/`), so `loadlab report` can print one line per bad file.
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
