/**
 * The collector's watch on silent workers: a worker whose event loop beats is live however short the
 * request timeout; one that stops beating is ended as stuck.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { WorkerCollector } from "./collect.ts";
import { HEARTBEAT_MS, HEARTBEAT_SLOTS } from "./protocol.ts";
import type { LoadWorker } from "./load_worker.ts";
import type { AttackConfig } from "../config.ts";

Deno.test("a beating worker outlives a 1 ms timeout; a silent one is ended as stuck", async () => {
  let terminated = false;
  const worker = { terminate: () => terminated = true, postMessage() {} } as unknown as LoadWorker;
  const heartbeat = new Float64Array(HEARTBEAT_SLOTS);
  const beat = () => heartbeat[0] = performance.timeOrigin + performance.now();
  beat();
  const beats = setInterval(beat, HEARTBEAT_MS);
  // ghz's -t 1ms with its duration's close: a timeout and graceful stop far under the beat.
  const config = { timeoutMs: 1, gracefulStopMs: 0, model: "connections" } as unknown as AttackConfig;
  const span = { originMs: performance.now(), endMs: Infinity, memoryLimitMb: 2 ** 20 };
  const collecting = new WorkerCollector([worker], [heartbeat], { onSamples() {} }, config, span);
  await new Promise((resolve) => setTimeout(resolve, 15 * HEARTBEAT_MS));
  assertEquals(terminated, false);
  clearInterval(beats);
  let limit: ReturnType<typeof setTimeout> | undefined;
  const summary = await Promise.race([
    collecting.done,
    new Promise((resolve) => limit = setTimeout(() => resolve(null), 200 * HEARTBEAT_MS)),
  ]);
  clearTimeout(limit);
  assertEquals([terminated, (summary as { part: { stuckWorkers?: number } } | null)?.part.stuckWorkers], [
    true,
    1,
  ]);
});
