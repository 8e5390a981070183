import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { parseRateLimit } from "./rate_limit.ts";

Deno.test("parseRateLimit reads N/window in ms, s, m and h", () => {
  assertEquals(parseRateLimit("100/1s"), { limit: 100, windowMs: 1000 });
  assertEquals(parseRateLimit("10/500ms"), { limit: 10, windowMs: 500 });
  assertEquals(parseRateLimit("600/m"), { limit: 600, windowMs: 60_000 });
  assertEquals(parseRateLimit("5/0.5h"), { limit: 5, windowMs: 1_800_000 });
  assertEquals(parseRateLimit("100/.5s"), { limit: 100, windowMs: 500 });
  assertEquals(parseRateLimit("5/5.s"), { limit: 5, windowMs: 5000 });
  for (const bad of ["100", "0/1s", "100/0s", "x/1s", "100/1d", "", "3/./s"]) {
    assertEquals(parseRateLimit(bad), null, bad);
  }
});
