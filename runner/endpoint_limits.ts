/**
 * @module
 * The bound on endpoint names, one for both ways a run names its endpoints: the table fixed from the
 * configuration before the load (runner/endpoint_table.ts) and the names a session script's requests add
 * as they are sent (runner/stats/endpoint_recorder.ts, merged by name in runner/stats/run_totals.ts). Past
 * it names pool under one endpoint: bounded memory per worker, bounded label cardinality for metrics.
 * A script's request with user tags is the endpoint of its name and tags (`taggedKey`), on both sides.
 */

/** Distinct endpoint names kept apart; further names count under `OTHER_ENDPOINT`. */
export const MAX_ENDPOINTS = 64;

/** The endpoint that pools every name past `MAX_ENDPOINTS`. */
export const OTHER_ENDPOINT = "(other)";

/**
 * What tells a tagged endpoint apart: its name and its tags in key order (the name alone when it has
 * none), one string; made per tagged request, only when the script gives tags.
 */
export function taggedKey(name: string, tags: Readonly<Record<string, string>>): string {
  let key = name;
  for (const k of Object.keys(tags).sort()) key += `\u0000${k}\u0001${tags[k]}`;
  return key;
}
