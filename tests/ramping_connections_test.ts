/**
 * Ramping connections end to end against the built-in target: the connections each interval recorded
 * follow the stages within one per worker at the interval's end, and two segments of four workers
 * each add up to the stages' total. Bounded: a few seconds of load a run, a few connections.
 */
import { ok } from "node:assert/strict";
import { parseAttackConfig } from "../runner/config.ts";
import { runAttack } from "../runner/attack.ts";
import type { Stage } from "../runner/load/models/ramping_connections.ts";
import { connectionsAt } from "../results/load_models.ts";
import { startTarget } from "../targets/start.ts";
import type { RunResult } from "../results/mod.ts";

/** Up to 6 over 1.5 s, held for 1 s, down to 0 over 1.5 s: slow enough that a late timer costs < 1. */
const STAGES: Stage[] = [
  { durationMs: 1_500, target: 6 },
  { durationMs: 1_000, target: 6 },
  { durationMs: 1_500, target: 0 },
];
const INTERVAL_MS = 500;

/** Each complete interval's recorded connections beside what the stages ask at its end. */
function alongStages(run: RunResult): Array<{ endMs: number; got: number; want: number }> {
  return run.intervals
    .filter((iv) => iv.durationMs === INTERVAL_MS && iv.startMs + INTERVAL_MS <= 4_000)
    .map((iv) => ({
      endMs: iv.startMs + INTERVAL_MS,
      got: iv.connections,
      want: connectionsAt(STAGES, iv.startMs + INTERVAL_MS),
    }));
}

async function ramp(url: string, workers: number, segment?: { index: number; count: number }) {
  return await runAttack(parseAttackConfig({
    url,
    model: "ramping-connections",
    stages: STAGES,
    workers,
    intervalMs: INTERVAL_MS,
    generatorWarmup: false,
    ...(segment ? { segment } : {}),
  }));
}

Deno.test("ramping connections: 3 stages followed within one connection per worker at each interval end", async () => {
  const target = await startTarget({ kind: "builtin" });
  try {
    const run = await ramp(`${target.url}/`, 2);
    ok(run.requests > 0, "sent requests");
    const rows = alongStages(run);
    ok(rows.length >= 6, `intervals: ${JSON.stringify(rows)}`);
    for (const row of rows) ok(Math.abs(row.got - row.want) <= 2, JSON.stringify(rows));
    // The plateau holds the stage's target; the ramp up and the ramp down are seen.
    ok(rows.some((r) => r.got === 6), JSON.stringify(rows));
    ok(rows.some((r) => r.got > 0 && r.got < 6), JSON.stringify(rows));
    assertNoErrors(run);
  } finally {
    await target.stop();
  }
});

Deno.test("ramping connections: two segments of 4 workers add up to the stages at every interval end", async () => {
  const target = await startTarget({ kind: "builtin" });
  try {
    // Run one after the other: each segment's schedule counts from its own start, as a shard's does.
    const a = alongStages(await ramp(`${target.url}/`, 4, { index: 0, count: 2 }));
    const b = alongStages(await ramp(`${target.url}/`, 4, { index: 1, count: 2 }));
    const n = Math.min(a.length, b.length);
    ok(n >= 6, `intervals: ${JSON.stringify({ a, b })}`);
    for (let i = 0; i < n; i++) {
      // Each segment is within one connection per worker (4) of its share; together within 8 of the total.
      ok(Math.abs(a[i].got + b[i].got - a[i].want) <= 8, JSON.stringify({ a, b }));
    }
    const plateau = a.findIndex((r) => r.endMs === 2_000);
    ok(plateau >= 0 && a[plateau].got + b[plateau].got === 6, JSON.stringify({ a, b }));
  } finally {
    await target.stop();
  }
});

function assertNoErrors(run: RunResult): void {
  ok(Object.keys(run.errors).length === 0, JSON.stringify(run.errors));
}
