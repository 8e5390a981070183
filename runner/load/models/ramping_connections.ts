/**
 * @module
 * `ramping-connections`: closed, connections following linear stages (k6's ramping-vus); a worker adds its
 * share as it rises, retires its newest after their request, and cuts a session `gracefulRampDownMs` later.
 */
import { MAX_DURATION_MS, MAX_DURATION_WORDS } from "../../../validation/duration.ts";
import { defineModel, type ModelConfig } from "./model.ts";
import { summedMs } from "./fields.ts";
import { issueList } from "../../../validation/mod.ts";
import { type LoadContext, mayStart } from "../executor.ts";
import { shareOf } from "../schedule.ts";
import { sleepMs } from "../clock.ts";
import { closedLoop } from "../closed_loop.ts";
import { connectionsAt } from "../../../results/load_models.ts";
import type { LoadConnection } from "../../http/load_connection.ts";

/** Longest a worker sleeps between looks at its share (ms), to notice a stop; it wakes at each change. */
const MAX_SLEEP_MS = 50;
/** Woken this long after a change, the rounded count has surely moved (ms). */
const CHANGE_MARGIN_MS = 0.5;

export type Stage = ModelConfig<"ramping-connections">["stages"][number];

/** When `connectionsAt` next changes from `tMs`: Infinity after the last stage, 0 before 0 (warm-up). */
export function nextChangeMs(stages: readonly Stage[], tMs: number): number {
  if (tMs < 0) return 0;
  let from = 0, startMs = 0;
  for (const s of stages) {
    const endMs = startMs + s.durationMs;
    if (tMs < endMs) {
      if (s.target === from) return endMs;
      const v = from + ((s.target - from) * (tMs - startMs)) / s.durationMs;
      // A rising count changes on reaching the next whole number, a falling one the one below it.
      const next = s.target > from ? Math.floor(v) + 1 : Math.ceil(v) - 1;
      return Math.min(endMs, startMs + ((next - from) * s.durationMs) / (s.target - from));
    }
    from = s.target;
    startMs = endMs;
  }
  return Infinity;
}

/** Worker `index` of `count`'s connections at `tMs` (before 0: the warm-up, at the first target). */
export function workerConnectionsAt(
  stages: readonly Stage[],
  tMs: number,
  index: number,
  count: number,
): number {
  const total = tMs < 0 ? stages[0].target : connectionsAt(stages, tMs);
  return shareOf(total, index, count);
}

export const rampingConnectionsModel = defineModel({
  model: "ramping-connections",
  check(c) {
    const [issues, add] = issueList();
    if (summedMs(c.stages) > MAX_DURATION_MS) {
      add(["stages"], `the stages together must be ${MAX_DURATION_WORDS}`);
    }
    if (c.stages.length > 0 && c.stages.every((s) => s.target === 0)) {
      add(["stages"], "no stage opens a connection: give one a target >= 1");
    }
    if (c.protocol !== "http1") {
      // An HTTP/2 stream slot shares its session: retiring one would close the others' streams.
      add(["protocol"], "ramping connections speak HTTP/1.1 for now: drop the protocol, or hold -c fixed");
    }
    return issues;
  },
  warmupFields: (_c, burst) => ({
    stages: [{ durationMs: 1, target: burst.connections }, {
      durationMs: burst.durationMs,
      target: burst.connections,
    }],
  }),
  async run(ctx): Promise<void> {
    const stages = ctx.config.stages;
    const originMs = ctx.startMs + ctx.config.warmupMs;
    const live: Slot[] = [], retiring: Slot[] = [];
    const loops: Promise<void>[] = [];
    const graceMs = ctx.config.gracefulRampDownMs ?? Infinity;
    let nowMs = performance.now();
    while (mayStart(ctx, nowMs)) {
      // Paused by steering: every connection retires after its request, and comes back on a resume.
      const want = ctx.steer.steered && ctx.steer.pausedAt(nowMs) ? 0 : ctx.streamsPerConnection *
        workerConnectionsAt(stages, nowMs - originMs, ctx.workerIndex, ctx.workerCount);
      while (live.length < want) {
        const cut = graceMs < Infinity ? new AbortController() : null;
        const slot = { retired: false, cutAtMs: Infinity, cut };
        live.push(slot);
        loops.push(runSlot(ctx, ctx.newConnection(), slot));
      }
      // The newest go first: the oldest connections keep their warm state.
      while (live.length > want) {
        const slot = live.pop()!;
        slot.retired = true, slot.cutAtMs = nowMs + graceMs;
        if (slot.cut !== null) retiring.push(slot);
      }
      // Retired in order, each with the same grace: the first is the next to cut.
      while (retiring.length > 0 && nowMs >= retiring[0].cutAtMs) retiring.shift()!.cut!.abort();
      const tMs = nowMs - originMs, cutInMs = (retiring[0]?.cutAtMs ?? Infinity) - nowMs;
      await sleepMs(Math.min(MAX_SLEEP_MS, cutInMs, nextChangeMs(stages, tMs) - tMs + CHANGE_MARGIN_MS));
      nowMs = performance.now();
    }
    await Promise.all(loops);
  },
});

/** A worker's connection; `cut` aborts its session a ramp-down's grace after it was retired. */
type Slot = { retired: boolean; cutAtMs: number; cut: AbortController | null };

/** One connection's closed loop until it is retired or the load ends; then it closes. */
async function runSlot(ctx: LoadContext, conn: LoadConnection, slot: Slot): Promise<void> {
  const take = (depth: number, nowMs: number) => (!slot.retired && mayStart(ctx, nowMs) ? depth : 0);
  await closedLoop(ctx, conn, take, ctx.arrival === null ? conn.open() : true, slot.cut?.signal);
  // Idle now (its last exchange ended): closing it cuts nothing.
  if (slot.retired) conn.abort();
}
