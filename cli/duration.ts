/**
 * @module
 * Durations on the command line (`500ms`, `1m30s`, bare seconds) in milliseconds.
 */
import { DURATION_HINT, durationMsOf, MAX_DURATION_MS, MAX_DURATION_WORDS } from "../validation/duration.ts";
import { UsageError } from "./usage_error.ts";

/**
 * Parses a duration to milliseconds (>= 0). `flag` only shapes the error message.
 *
 * @example parseDurationMs("1m30s") === 90_000; parseDurationMs("90") === 90_000
 */
export function parseDurationMs(s: string, flag?: string): number {
  const text = s.trim();
  const ms = /^(\d+(?:\.\d+)?|\.\d+)$/.test(text) ? Number(text) * 1_000 : durationMsOf(text);
  if (ms === undefined || !Number.isFinite(ms)) throw new UsageError(notADuration(s, flag));
  if (ms > MAX_DURATION_MS) {
    const prefix = flag ? `${flag} ${JSON.stringify(s)}` : JSON.stringify(s);
    throw new UsageError(`${prefix}: must be ${MAX_DURATION_WORDS}, e.g. ${flag ? `${flag} 1h` : "1h"}`);
  }
  return ms;
}

function notADuration(s: string, flag?: string): string {
  const prefix = flag ? `${flag} ${JSON.stringify(s)}` : JSON.stringify(s);
  const example = flag ? `${flag} 10s` : "10s";
  return `${prefix}: not a duration; ${DURATION_HINT}, e.g. ${example}`;
}
