/**
 * @module
 * The parser of durations with units (`500ms`, `1.5s`, `1m30s`), shared by the CLI and experiment files.
 */

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };
const PART = /(\d+(?:\.\d+)?|\.\d+)(ms|s|m|h)/y;

/** The longest duration loadlab takes anywhere: 7 days, so a typo such as `99999999999h` is refused. */
export const MAX_DURATION_MS = 7 * 24 * 3_600_000;

export const MAX_DURATION_WORDS = "at most 7 days (168h)";

export const DURATION_HINT = "use a number with ms, s, m or h";

/** Milliseconds of a duration written with units, e.g. "1m30s"; `undefined` when `text` is not one. */
export function durationMsOf(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  PART.lastIndex = 0;
  let totalMs = 0;
  while (PART.lastIndex < trimmed.length) {
    const match = PART.exec(trimmed);
    if (!match) return undefined;
    totalMs += Number(match[1]) * UNIT_MS[match[2]];
  }
  return Number.isFinite(totalMs) ? totalMs : undefined;
}
