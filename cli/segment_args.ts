/**
 * @module
 * `--segment i/N` and `--start-at TIME`, shared by `attack` and `run`: which execution segment of a load
 * split over several machines this process generates, and the wall-clock instant every segment starts
 * its schedule. `i` counts from 0 like Kubernetes' `JOB_COMPLETION_INDEX` and a CI matrix index, so an
 * orchestrator passes its index as it is. A bad value is one `UsageError` (exit 2) naming the fix.
 */
import { UsageError } from "./usage_error.ts";

/** One segment of N; the shape of `AttackConfig.segment`. */
export interface SegmentArg {
  index: number;
  count: number;
}

/** Parses `i/N` (0 <= i < N); `undefined` passes through. */
export function parseSegment(text: string | undefined): SegmentArg | undefined {
  if (text === undefined) return undefined;
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const example = "e.g. --segment 0/4 (the first of 4; the index counts from 0 like JOB_COMPLETION_INDEX)";
  if (!match) throw new UsageError(`--segment ${JSON.stringify(text)}: expected INDEX/COUNT, ${example}`);
  const index = Number(match[1]), count = Number(match[2]);
  if (count < 1) throw new UsageError(`--segment ${text}: the count must be at least 1, ${example}`);
  if (index >= count) {
    throw new UsageError(
      `--segment ${text}: the index must be below the count (0 to ${count - 1}), ${example}`,
    );
  }
  return { index, count };
}

/**
 * Parses an RFC 3339 time with its zone (`2026-11-21T17:00:00Z`, `...+02:00`, fractions allowed) to
 * ms since the epoch. A time without a zone is refused: machines in different zones would read it as
 * different instants, which is the one thing a shared start must not do.
 */
export function parseStartAt(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const rfc3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
  const epochMs = rfc3339.test(text.trim()) ? Date.parse(text.trim().replace(" ", "T")) : NaN;
  if (!Number.isFinite(epochMs)) {
    throw new UsageError(
      `--start-at ${JSON.stringify(text)}: expected an RFC 3339 time with its zone, e.g. ` +
        `2026-11-21T17:00:00Z (date -u -d '+1 min' +%Y-%m-%dT%H:%M:%SZ)`,
    );
  }
  return epochMs;
}
