import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { cacheBypassSentence } from "./cache_bypass.ts";
import type { RunResult } from "../results/mod.ts";

const run = (targetStats?: Record<string, number>) => ({ targetStats }) as RunResult;

Deno.test("cacheBypassSentence: says how often the cache and the limiter were bypassed, null otherwise", () => {
  assertEquals(cacheBypassSentence(run()), null);
  assertEquals(cacheBypassSentence(run({ hits: 10, misses: 2, bypasses: 0 })), null);
  assertEquals(
    cacheBypassSentence(run({ hits: 600, misses: 200, bypasses: 1200 })),
    "cache bypassed for 1,200 of 2,000 cacheable requests (60%): Redis failed or was too slow, so they " +
      "went to the upstream uncached (the numbers are not those of the cached setup)",
  );
  assertEquals(
    cacheBypassSentence(run({ limiterBypasses: 1 })),
    "the rate limiter could not reach Redis and let 1 request through unchecked " +
      "(the numbers are not those of the cached setup)",
  );
});
