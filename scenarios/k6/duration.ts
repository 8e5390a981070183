/**
 * @module
 * k6's durations (`1m30s`, `500ms`, a number of ms) as loadlab's, for a k6 script's options.
 */

/** Takes a problem with the options path it is at. */
export type Problem = (path: Array<string | number>, message: string) => void;

/** k6 durations (`1m30s`, `500ms`, a number of ms) as loadlab's (`90000ms`). */
export function k6Duration(
  value: unknown,
  path: Array<string | number>,
  problem: Problem,
): string | undefined {
  if (typeof value === "number") return `${value}ms`;
  if (typeof value !== "string") {
    problem(path, "a duration is a string such as 30s or 1m30s");
    return undefined;
  }
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0, rest = value.trim();
  if (rest === "") return problem(path, "an empty duration"), undefined;
  while (rest.length > 0) {
    const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)/.exec(rest);
    if (m === null) return problem(path, `${value}: not a duration (e.g. 30s, 1m30s, 500ms)`), undefined;
    total += Number(m[1]) * units[m[2]];
    rest = rest.slice(m[0].length);
  }
  return `${Math.round(total)}ms`;
}
