/**
 * @module
 * Pure: says a caching proxy's requests bypassed a dead or stalled Redis, so the run is not read as cached.
 */
import type { RunResult } from "../results/mod.ts";
import { formatCount } from "../results/text_format.ts";
import { formatShare } from "../results/conclude/send_counts.ts";

/** "cache bypassed for 1,234 of 2,000 cacheable requests (62%): ..."; null when nothing bypassed. */
export function cacheBypassSentence(run: RunResult): string | null {
  const stats = run.targetStats;
  if (!stats) return null;
  const bypasses = stats.bypasses ?? 0;
  const unchecked = stats.limiterBypasses ?? 0;
  if (!(bypasses > 0) && !(unchecked > 0)) return null;
  const parts: string[] = [];
  if (bypasses > 0) {
    const seen = bypasses + (stats.hits ?? 0) + (stats.misses ?? 0);
    const share = formatShare(bypasses / seen);
    parts.push(
      `cache bypassed for ${formatCount(bypasses)} of ${formatCount(seen)} cacheable requests ` +
        `(${share}): Redis failed or was too slow, so they went to the upstream uncached`,
    );
  }
  if (unchecked > 0) {
    parts.push(
      `the rate limiter could not reach Redis and let ${formatCount(unchecked)} request` +
        `${unchecked === 1 ? "" : "s"} through unchecked`,
    );
  }
  return `${parts.join("; ")} (the numbers are not those of the cached setup)`;
}
