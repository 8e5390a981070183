/**
 * @module
 * The parser of durations with units (`500ms`, `1.5s`, `1m30s`) for the CLI and experiment files.
 */

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };
const PART = /(\d+(?:\.\d+)?|\.\d+)(ms|s|m|h)/y;

/** The longest duration loadlab takes anywhere: 7 days, so a typo such as `99999999999h` is refused. */
export const MAX_DURATION_MS = 7 * 24 * 3_600_000;

export const MAX_DURATION_WORDS = "at most 7 days (168h)";

export const DURATION_HINT = "use a number with ms, s, m or h, each unit once, largest first";

/** Milliseconds of a duration written with units, e.g. "1m30s"; `undefined` when `text` is not one. */
export function durationMsOf(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  PART.lastIndex = 0;
  let totalMs = 0, lastUnitMs = Infinity;
  while (PART.lastIndex < trimmed.length) {
    const match = PART.exec(trimmed);
    // Each unit once, largest first: `1h1h` or `30s1m` is a typo, not a sum.
    if (!match || UNIT_MS[match[2]] >= lastUnitMs) return undefined;
    lastUnitMs = UNIT_MS[match[2]];
    totalMs += Number(match[1]) * lastUnitMs;
  }
  return Number.isFinite(totalMs) ? totalMs : undefined;
}
