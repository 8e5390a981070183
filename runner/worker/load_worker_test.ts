/**
 * A load worker's young generation (pool.ts): the default for fixed requests, 24 MB semi-spaces for
 * a worker's first 10,000 script sessions, more with more of them, never past 48 MB; a load split over
 * workers or segments sizes each worker for its share.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import type { AttackConfig } from "../config.ts";
import { SESSIONS_YOUNG_MB } from "./load_worker.ts";
import { youngGenerationMbOf } from "./pool.ts";

const script = { path: "./session.ts" };
const config = (fields: Record<string, unknown>) =>
  ({ model: "connections", workers: 1, script, ...fields }) as unknown as AttackConfig;

Deno.test("load worker: the young generation grows with the script sessions a worker holds", () => {
  assertEquals(youngGenerationMbOf(config({ connections: 19_950, script: undefined })), 12);
  assertEquals(youngGenerationMbOf(config({ connections: 50 })), 72);
  assertEquals(SESSIONS_YOUNG_MB, 72, "a script's isolate started early is the size its run asks for");
  assertEquals(youngGenerationMbOf(config({ connections: 10_000 })), 72);
  assertEquals(youngGenerationMbOf(config({ connections: 15_000 })), 108);
  assertEquals(youngGenerationMbOf(config({ connections: 19_950 })), 144);
  assertEquals(youngGenerationMbOf(config({ connections: 100_000 })), 144);
  assertEquals(youngGenerationMbOf(config({ connections: 19_950, workers: 2 })), 72);
  assertEquals(youngGenerationMbOf(config({ connections: 40_000, segment: { index: 0, count: 2 } })), 144);
  assertEquals(
    youngGenerationMbOf(
      config({ model: "ramping-connections", stages: [{ target: 100 }, { target: 15_000 }] }),
    ),
    108,
  );
});
