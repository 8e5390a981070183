/**
 * @module
 * The bound on endpoint names, for both the table fixed before the load and a script's run-time names;
 * past it names pool under one endpoint. A tagged request's endpoint is its name and tags (`taggedKey`).
 */

/** Distinct endpoint names kept apart; further names count under `OTHER_ENDPOINT`. */
export const MAX_ENDPOINTS = 64;

/** The endpoint that pools every name past `MAX_ENDPOINTS`. */
export const OTHER_ENDPOINT = "(other)";

/** A tagged endpoint's key: its name, its tags in key order and its own expected statuses, one string. */
export function taggedKey(
  name: string,
  tags: Readonly<Record<string, string>> = {},
  expected?: ReadonlyArray<readonly [number, number]>,
): string {
  let key = name;
  for (const k of Object.keys(tags).sort()) key += `\u0000${k}\u0001${tags[k]}`;
  return expected === undefined ? key : `${key}\u0002${expected.join(" ")}`;
}
