/**
 * @module
 * Whether two sides' success shares differ beyond noise: a two-proportion z-test on the counts of the
 * requests sent (repeats pooled), at the bars every noise rule uses, since a run's requests are not
 * independent (one stall fails many). Pure.
 */
import type { RunResult } from "../schema/results.ts";
import { sumValues } from "../interval_counts.ts";
import { BEYOND_NOISE_MIN_SE, WITHIN_NOISE_MAX_SE } from "../stats.ts";
import { formatCount } from "../text_format.ts";

/** A side's requests: sent (answered or failed), and of them those answered 2xx/3xx. */
interface ShareCounts {
  sent: number;
  succeeded: number;
}

/** The requests of these runs pooled, as their `successRate` counts them (answers plus errors). */
export function shareCounts(runs: RunResult[]): ShareCounts {
  let sent = 0, succeeded = 0;
  for (const run of runs) {
    const n = run.requests + sumValues(run.errors);
    sent += n;
    succeeded += Math.round(run.successRate * n);
  }
  return { sent, succeeded };
}

/** The difference `b - a` of two shares in points, its pooled standard error, and how many it is. */
interface ShareTest {
  diffPct: number;
  sePct: number;
  /** |diff| / se; 0 for two equal shares with no spread (both 100%), Infinity for unequal ones. */
  z: number;
}

/** The two-proportion z-test of `b` against `a`; null when a side sent nothing. */
export function twoProportion(a: ShareCounts, b: ShareCounts): ShareTest | null {
  if (a.sent === 0 || b.sent === 0) return null;
  const pa = a.succeeded / a.sent, pb = b.succeeded / b.sent;
  const pooled = (a.succeeded + b.succeeded) / (a.sent + b.sent);
  const sePct = Math.sqrt(pooled * (1 - pooled) * (1 / a.sent + 1 / b.sent)) * 100;
  const diffPct = (pb - pa) * 100;
  const z = sePct > 0 ? Math.abs(diffPct) / sePct : diffPct === 0 ? 0 : Infinity;
  return { diffPct, sePct, z };
}

/** "500 requests each", "500 and 625 requests". */
function requestsText(a: ShareCounts, b: ShareCounts): string {
  return a.sent === b.sent
    ? `${formatCount(a.sent)} requests each`
    : `${formatCount(a.sent)} and ${formatCount(b.sent)} requests`;
}

/** "22 standard errors", "more than 100 standard errors" (a difference with no spread at all). */
export function standardErrorsText(z: number): string {
  if (!Number.isFinite(z) || z > 100) return "more than 100 standard errors";
  return `${z.toFixed(z >= 10 ? 0 : 1)} standard errors`;
}

/** The verdict on a success share: beyond noise or not with the test said, or why not judged. */
type ShareJudgement = { beyond: boolean; how: string } | { notJudged: string };

/** The verdict of the two-proportion test on the success share of `runs` against `baseRuns`. */
export function judgeShares(baseRuns: RunResult[], runs: RunResult[]): ShareJudgement {
  const a = shareCounts(baseRuns), b = shareCounts(runs);
  const test = twoProportion(a, b);
  if (test === null) return { notJudged: "a side sent no request after its warm-up" };
  const how = `by a two-proportion test, ${standardErrorsText(test.z)} apart, ${requestsText(a, b)}`;
  if (test.z >= BEYOND_NOISE_MIN_SE) return { beyond: true, how };
  if (test.z < WITHIN_NOISE_MAX_SE) return { beyond: false, how };
  return {
    notJudged:
      `${how}: beyond noise needs ${BEYOND_NOISE_MIN_SE} (a run's requests fail together, in stalls ` +
      "and runs of timeouts)",
  };
}
