/**
 * @module
 * Validates a `results.json` read back from disk (already parsed from JSON) before anything uses it. Pure:
 * the report calls it without touching `Deno.*`. A v1 file comes back as v2 (the schema accepts both
 * tags; v2 only added optional fields). The problem names the first bad path and what it expected, so
 * `loadlab report` can print one line per bad file.
 */
import { type ResultsFile, resultsFileSchema } from "./schema.ts";

/** Outcome of validating untrusted JSON: the results, or one line saying where and what is wrong. */
export type ParseOutcome = { ok: true; results: ResultsFile } | { ok: false; problem: string };

/** Validates parsed JSON as a results file (v1 or v2), upgrading it to v2. */
export function parseResultsFile(data: unknown): ParseOutcome {
  const parsed = resultsFileSchema.safeParse(data);
  if (parsed.success) return { ok: true, results: parsed.data };
  const issues = parsed.error.issues;
  const first = issues[0];
  const path = first.path.length ? first.path.join(".") : "(root)";
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problems)` : "";
  return { ok: false, problem: `${path}: ${first.message}${more}` };
}
