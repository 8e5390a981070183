/**
 * @module
 * The one parser of human durations (`500ms`, `10s`, `1.5s`, `1m`, `2h`, compound `1m30s`), shared by
 * the command line (cli/duration.ts, which also takes a bare number as seconds, as autocannon's `-d`
 * does) and experiment files (scenarios/schema/experiment.ts, where a bare number is an error because `10`
 * could mean seconds or milliseconds). Neutral so neither layer imports the other.
 */

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };
const PART = /(\d+(?:\.\d+)?|\.\d+)(ms|s|m|h)/y;

/**
 * The longest duration loadlab takes anywhere (a load, a phase, a warm-up, a timeout): 7 days. A soak
 * longer than that is several runs; a typo such as `99999999999h` is refused instead of accepted.
 */
export const MAX_DURATION_MS = 7 * 24 * 3_600_000;

/** The cap in words, for error messages. */
export const MAX_DURATION_WORDS = "at most 7 days (168h)";

/** How to write a duration, for error messages. */
export const DURATION_HINT = "use a number with ms, s, m or h";

/**
 * Milliseconds of a duration written with units, or `undefined` when `text` is not one.
 *
 * @example durationMsOf("1m30s") === 90_000; durationMsOf("90") === undefined
 */
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
