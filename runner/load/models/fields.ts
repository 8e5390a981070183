/**
 * @module
 * The load models' caps and defaults stated once (zod fields: runner/config_fields.ts), their shared checks.
 */
import { formatCount } from "../../../results/text_format.ts";
import type { PathIssue } from "../../../validation/mod.ts";

/** The highest rate of one whole load, req/s: ten times one generator's loopback peak; above is a typo. */
export const MAX_RATE_PER_SEC = 10_000_000;
export const RATE_CAP = `at most ${formatCount(MAX_RATE_PER_SEC)} requests per second (one load's cap)`;

/** Measured duration of the connections and throughput models when none is given (wrk's 10 s). */
export const DEFAULT_DURATION_MS = 10_000;

/** Open pacing's default bound on connections opened on demand. */
export const DEFAULT_MAX_CONNECTIONS = 1_000;

export const MAX_STAGES = 1_000;
/** Most connections a stage may ask for, the whole load's; one process is held to its open-file limit. */
export const MAX_STAGE_CONNECTIONS = 1_000_000;

/** The length of phases or stages laid end to end (ms). */
export function summedMs(parts: ReadonlyArray<{ readonly durationMs: number }>): number {
  return parts.reduce((sum, p) => sum + p.durationMs, 0);
}

/** An open schedule planning under one send (which would still go, far above its rate): refused. */
export function underOneSendIssues(
  arrivals: number,
  path: Array<string | number>,
): PathIssue[] {
  if (!(arrivals > 0 && arrivals < 1 - 1e-9)) return [];
  return [{
    path,
    message: `plans ${Number(arrivals.toPrecision(3))} sends in all, fewer than one: raise the rate or ` +
      "lengthen the duration",
  }];
}

/** Every worker of every segment needs a connection of its own (`segments: false`: opened on demand). */
export function connectionShareIssues(
  c: { connections: number; workers: number; segment?: { count: number } },
  segments = true,
): PathIssue[] {
  // Connections below 1 are already an issue of their own; comparing with them would only repeat it.
  if (c.connections >= 1 && c.workers > c.connections) {
    return [{
      path: ["workers"],
      message: `workers (${c.workers}) must not exceed connections (${c.connections})`,
    }];
  }
  if (segments && c.segment && c.workers * c.segment.count > c.connections) {
    return [{
      path: ["segment"],
      message: `${c.segment.count} segments of ${c.workers} worker(s) need at least ` +
        `${c.workers * c.segment.count} connections (have ${c.connections})`,
    }];
  }
  return [];
}
