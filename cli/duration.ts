/**
 * @module
 * Human durations on the command line, as wrk, oha, k6 and Artillery users write them: `500ms`, `10s`,
 * `1.5s`, `1m`, `2h`, compound `1m30s`, and a bare number meaning seconds (`90`), which is what
 * autocannon's `-d` takes. Returns milliseconds, the unit of `AttackConfig`.
 */
import { UsageError } from "./usage_error.ts";

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };
const PART = /(\d+(?:\.\d+)?|\.\d+)(ms|s|m|h)/y;

/**
 * Parses a duration to milliseconds (>= 0). `flag` only shapes the error message.
 *
 * @example parseDurationMs("1m30s") === 90_000; parseDurationMs("90") === 90_000
 */
export function parseDurationMs(s: string, flag?: string): number {
  const text = s.trim();
  const ms = /^(\d+(?:\.\d+)?|\.\d+)$/.test(text) ? Number(text) * 1_000 : parseWithUnits(text);
  if (ms === undefined || !Number.isFinite(ms)) throw new UsageError(notADuration(s, flag));
  return ms;
}

function parseWithUnits(text: string): number | undefined {
  if (text === "") return undefined;
  PART.lastIndex = 0;
  let totalMs = 0;
  while (PART.lastIndex < text.length) {
    const match = PART.exec(text);
    if (!match) return undefined;
    totalMs += Number(match[1]) * UNIT_MS[match[2]];
  }
  return totalMs;
}

function notADuration(s: string, flag?: string): string {
  const prefix = flag ? `${flag} ${JSON.stringify(s)}` : JSON.stringify(s);
  const example = flag ? `${flag} 10s` : "10s";
  return `${prefix}: not a duration; use a number with ms, s, m or h, e.g. ${example}`;
}
