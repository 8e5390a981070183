/**
 * @module
 * loadlab's memory limit: the one asked for, else half the machine's free memory between the floor and
 * the cap (both growing with the workers) and below one isolate's heap limit; its watch, which says once,
 * with the RSS, when the limit is passed, and nothing after it is stopped; and the wait for the memory of
 * the workers it ended, which ends as the RSS is back under the limit.
 */
import assert from "node:assert/strict";
import { parseAttackConfig } from "../config.ts";
import { memoryGivenBack, memoryLimitMbOf, watchMemory } from "./memory_limit.ts";

const MB = 2 ** 20;
const config = (fields: { workers?: number; maxMemoryMb?: number } = {}) =>
  parseAttackConfig({ url: "http://127.0.0.1:8080/", model: "connections", connections: 8, ...fields });

Deno.test("memoryLimitMbOf: the limit asked for, else half the free memory between the floor and the cap", () => {
  const heap = 4_192 * MB;
  assert.equal(memoryLimitMbOf(config({ maxMemoryMb: 300 }), 64_000 * MB, heap), 300);
  // One worker: half of 3 GB free; never below 1,024 MB (a 1 GB machine), never above 2,048 MB.
  assert.equal(memoryLimitMbOf(config(), 3_000 * MB, heap), 1_500);
  assert.equal(memoryLimitMbOf(config(), 1_000 * MB, heap), 1_024);
  assert.equal(memoryLimitMbOf(config(), 64_000 * MB, heap), 2_048);
  // Four workers: the floor and the cap grow with them (128 MB and 256 MB each past the first).
  assert.equal(memoryLimitMbOf(config({ workers: 4 }), 1_000 * MB, heap), 1_408);
  assert.equal(memoryLimitMbOf(config({ workers: 4 }), 64_000 * MB, heap), 2_816);
  // Below the heap limit where one isolate would stall first, the floor still kept; unknown free memory: the
  // cap.
  assert.equal(memoryLimitMbOf(config({ workers: 8 }), 64_000 * MB, 3_000 * MB), 3_000);
  assert.equal(memoryLimitMbOf(config(), 64_000 * MB, 900 * MB), 1_024);
  assert.equal(memoryLimitMbOf(config(), 0, heap), 2_048);
  // This machine's, read as the pool reads it.
  const own = memoryLimitMbOf(config());
  assert.ok(own >= 1_024 && own <= 2_048, String(own));
});

Deno.test("watchMemory: says once, with the RSS, when it passes the limit; nothing once stopped", async () => {
  let rssBytes = 100 * MB;
  const seen: number[] = [];
  const watch = watchMemory(300, (rssMb) => seen.push(rssMb), () => rssBytes);
  await new Promise((r) => setTimeout(r, 60));
  assert.equal(seen.length, 0);
  rssBytes = 320 * MB;
  await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(seen, [320]);
  watch.stop();
  const quiet = watchMemory(300, (rssMb) => seen.push(rssMb), () => 400 * MB);
  quiet.stop();
  await new Promise((r) => setTimeout(r, 60));
  assert.deepEqual(seen, [320]);
});

Deno.test("memoryGivenBack: at once under the limit; else as soon as the RSS is back under it", async () => {
  let reads = 0;
  await memoryGivenBack(300, () => (reads++, 100 * MB));
  assert.equal(reads, 1);
  const startedMs = performance.now();
  await memoryGivenBack(300, () => (++reads < 5 ? 400 * MB : 200 * MB));
  assert.equal(reads, 5);
  assert.ok(performance.now() - startedMs < 2_000, "not the whole bound");
});
