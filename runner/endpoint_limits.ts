/**
 * @module
 * The bound on endpoint names, one for both ways a run names its endpoints: the table fixed from the
 * configuration before the load (runner/endpoint_table.ts) and the names a session script's requests add
 * as they are sent (runner/stats/endpoint_recorder.ts, merged by name in runner/stats/run_totals.ts). Past
 * it names pool under one endpoint: bounded memory per worker, bounded label cardinality for metrics.
 */

/** Distinct endpoint names kept apart; further names count under `OTHER_ENDPOINT`. */
export const MAX_ENDPOINTS = 64;

/** The endpoint that pools every name past `MAX_ENDPOINTS`. */
export const OTHER_ENDPOINT = "(other)";
