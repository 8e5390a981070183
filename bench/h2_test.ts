/** bench/h2.ts reads h2load's summary: its req/s, and a run with failures or non-2xx answers refused. */
import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { parseH2loadRps } from "./h2.ts";

const SUMMARY = `finished in 1.00s, 50360.00 req/s, 1.87MB/s
requests: 50360 total, 50410 started, 50360 done, 50360 succeeded, 0 failed, 0 errored, 0 timeout
status codes: 50360 2xx, 0 3xx, 0 4xx, 0 5xx
`;

Deno.test("parseH2loadRps reads req/s of a clean run", () => {
  assertEquals(parseH2loadRps(SUMMARY), 50360);
  assertEquals(parseH2loadRps("no summary"), NaN);
});

Deno.test("parseH2loadRps refuses a run with failed requests or non-2xx answers", () => {
  throws(() => parseH2loadRps(SUMMARY.replace("0 failed", "3 failed")), /3 requests failed or not 2xx/);
  throws(() => parseH2loadRps(SUMMARY.replace("0 4xx", "12 4xx")), /12 requests failed or not 2xx/);
});
