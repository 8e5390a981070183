/**
 * @module
 * The caching proxy keeps serving when Redis dies or stalls: each such request goes straight to the
 * upstream and is counted as a bypass (targets/proxy/proxy.ts), and a rate limiter that cannot reach Redis
 * lets requests through unchecked. The run still "succeeds", so without a word it would pass for a run
 * of the cached setup. This turns those counters into one sentence for the terminal (cli/run/progress.ts)
 * and the run's detail in report.html (report/html/page/run.ts). Pure.
 */
import type { RunResult } from "../results/mod.ts";
import { formatCount } from "../results/text_format.ts";
import { shareOf } from "./generator_verdict.ts";

/**
 * "cache bypassed for 1,234 of 2,000 cacheable requests (62%): Redis failed or was too slow, so they
 * went to the upstream uncached", with the limiter's unchecked requests when there were any; null
 * when the run's target counted no bypass.
 */
export function cacheBypassSentence(run: RunResult): string | null {
  const stats = run.targetStats;
  if (!stats) return null;
  const bypasses = stats.bypasses ?? 0;
  const unchecked = stats.limiterBypasses ?? 0;
  if (!(bypasses > 0) && !(unchecked > 0)) return null;
  const parts: string[] = [];
  if (bypasses > 0) {
    const seen = bypasses + (stats.hits ?? 0) + (stats.misses ?? 0);
    parts.push(
      `cache bypassed for ${formatCount(bypasses)} of ${formatCount(seen)} cacheable requests ` +
        `(${shareOf(bypasses, seen)}): Redis failed or was too slow, so they went to the upstream uncached`,
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
