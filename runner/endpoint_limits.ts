/**
 * @module
 * The bound on endpoint names, shared by the table fixed before the load and a script's run-time names.
 */

/** Distinct endpoint names kept apart; further names count under `OTHER_ENDPOINT`. */
export const MAX_ENDPOINTS = 64;

export const OTHER_ENDPOINT = "(other)";

/** A tagged endpoint's key: name, tags in key order, own expected statuses and method (k6 tags by method). */
export function taggedKey(
  name: string,
  tags: Readonly<Record<string, string>> = {},
  expected?: ReadonlyArray<readonly [number, number]>,
  method?: string,
): string {
  let key = name;
  for (const k of Object.keys(tags).sort()) key += `\u0000${k}\u0001${tags[k]}`;
  if (method !== undefined) key += `\u0003${method}`;
  return expected === undefined ? key : `${key}\u0002${expected.join(" ")}`;
}
