/**
 * @module
 * The whole-load flags of `attack` and `run`: `--segment i/N` and `--start-at TIME` (one shard of a split
 * load) and `--abort-on-fail` (k6's `abortOnFail` on every threshold), which refuses a segment.
 */
import { UsageError } from "./usage_error.ts";
import { flag, type FlagSpec } from "./argv.ts";
import type { FlagValues } from "./flag_values.ts";
import type { AttackConfig } from "../runner/config.ts";

/** The two flags, one row each for both commands' `--help` (docs/scale-out.md). */
export const SEGMENT_FLAGS: FlagSpec[] = [
  flag("--segment I/N", { example: "0/4", config: ["segment"] }, [
    "generate segment I of N (from 0, like JOB_COMPLETION_INDEX): open",
    "models send every Nth request of the schedule, closed ones an even",
    "share of -c and -n; thresholds wait for loadlab merge of the shards",
  ]),
  flag("--start-at TIME", { example: "2026-11-21T17:00:00Z", config: ["startAtEpochMs"] }, [
    "start the schedule (warm-up included) at this RFC 3339 instant,",
    "e.g. 2026-11-21T17:00:00Z, so every segment's intervals line up;",
    "more than 1 s in the past is refused",
  ]),
];

/** Parses `i/N` (0 <= i < N); `undefined` passes through. */
export function parseSegment(text: string | undefined): AttackConfig["segment"] {
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

/** How far in the past `--start-at` may be; further back every due send would be late at once. */
export const START_AT_PAST_TOLERANCE_MS = 1_000;

/** An RFC 3339 time with its zone (`2026-11-21T17:00:00Z`) in ms since the epoch. */
export function parseStartAt(text: string | undefined, nowEpochMs = Date.now()): number | undefined {
  if (text === undefined) return undefined;
  const rfc3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
  const epochMs = rfc3339.test(text.trim()) ? Date.parse(text.trim().replace(" ", "T")) : NaN;
  if (!Number.isFinite(epochMs)) {
    throw new UsageError(
      `--start-at ${JSON.stringify(text)}: expected an RFC 3339 time with its zone, e.g. ` +
        `2026-11-21T17:00:00Z (date -u -d '+1 min' +%Y-%m-%dT%H:%M:%SZ)`,
    );
  }
  const pastMs = nowEpochMs - epochMs;
  if (pastMs > START_AT_PAST_TOLERANCE_MS) {
    throw new UsageError(
      `--start-at ${text.trim()}: is ${formatPast(pastMs)} in the past (at most ` +
        `${START_AT_PAST_TOLERANCE_MS / 1000} s allowed); give a time still to come, e.g. ` +
        `$(date -u -d '+1 min' +%Y-%m-%dT%H:%M:%SZ), or drop --start-at to start now`,
    );
  }
  return epochMs;
}

/** `3.2 s`, `5 min`, `26 h`, `9131 days`: how long ago, in the largest unit that fits. */
function formatPast(ms: number): string {
  const s = ms / 1000;
  if (s < 120) return `${s.toFixed(1)} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  if (s < 172_800) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86_400)} days`;
}

/** The two flags; each command gives them its own help text. */
export const ABORT_ON_FAIL: FlagSpec = flag("--abort-on-fail", {}, []);
export const DELAY_ABORT_EVAL: FlagSpec = flag("--delay-abort-eval D", { example: "10s" }, []);

/** `--abort-on-fail`'s request (`delayMs`: `--delay-abort-eval`), or undefined; throws on a bad pair. */
export function abortOnFailArg(flags: FlagValues): { delayMs?: number } | undefined {
  const delayMs = flags.durationMs("delay-abort-eval");
  if (!flags.has("abort-on-fail")) {
    if (delayMs !== undefined) throw new UsageError("--delay-abort-eval needs --abort-on-fail");
    return undefined;
  }
  if (flags.has("segment")) {
    throw new UsageError(
      "--abort-on-fail judges the whole load, and a --segment runs part of it; drop one of them",
    );
  }
  return delayMs === undefined ? {} : { delayMs };
}
