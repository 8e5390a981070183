/**
 * @module
 * The parser of durations with units (`500ms`, `1.5s`, `1m30s`) for the CLI and experiment files.
 */
import { numberSpelling } from "./terminal_text.ts";

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };
const PART = /(\d+(?:\.\d+)?|\.\d+)(ms|s|m|h)/y;

/** The longest duration loadlab takes anywhere: 7 days, so a typo such as `99999999999h` is refused. */
export const MAX_DURATION_MS = 7 * 24 * 3_600_000;

export const MAX_DURATION_WORDS = "at most 7 days (168h)";

const DURATION_HINT = "use a number with ms, s, m or h, each unit once, largest first";

/** A duration as a flag or a file writes it: "0s", "2s", "1.5s", "250ms". */
export function durationText(ms: number): string {
  return ms % 1000 === 0 || (ms > 1000 && ms % 100 === 0) ? `${ms / 1000}s` : `${ms}ms`;
}

/** Milliseconds of a duration written with units, e.g. "1m30s"; `undefined` when `text` is not one. */
export function durationMsOf(text: string): number | undefined {
  // A space before or after is refused, as on the command line: one rule for every duration.
  if (text === "" || text.trim() !== text) return undefined;
  PART.lastIndex = 0;
  let totalMs = 0, lastUnitMs = Infinity;
  while (PART.lastIndex < text.length) {
    const match = PART.exec(text);
    // Each unit once, largest first: `1h1h` or `30s1m` is a typo, not a sum.
    if (!match || UNIT_MS[match[2]] >= lastUnitMs) return undefined;
    lastUnitMs = UNIT_MS[match[2]];
    totalMs += Number(match[1]) * lastUnitMs;
  }
  return Number.isFinite(totalMs) ? totalMs : undefined;
}

/**
 * Why `text` (read as `ms`) is no duration loadlab takes ("not a duration; use ..."), and one to write
 * instead; undefined when it is one. The command line and the files refuse alike.
 */
export function durationProblem(text: string, ms = durationMsOf(text)) {
  if (text.trim() !== text) return { why: "has a space before or after it: drop it", eg: text.trim() };
  const note = numberSpelling(text);
  if (ms === undefined || !Number.isFinite(ms)) {
    return { why: `not a duration; ${note || DURATION_HINT}`, eg: "10s" };
  }
  return ms > MAX_DURATION_MS
    ? { why: `too long: durations must be ${MAX_DURATION_WORDS}`, eg: "1h" }
    : undefined;
}
