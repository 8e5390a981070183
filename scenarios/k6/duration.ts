/**
 * @module
 * k6's durations (`1m30s`, `500ms`, a number of ms) as loadlab's, for a k6 script's options.
 */
import { durationMsOf } from "../../validation/duration.ts";

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
  if (value.trim() === "") return problem(path, "an empty duration"), undefined;
  const ms = durationMsOf(value);
  if (ms === undefined) return problem(path, `${value}: not a duration (e.g. 30s, 1m30s, 500ms)`), undefined;
  return `${Math.round(ms)}ms`;
}
