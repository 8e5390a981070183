/**
 * @module
 * Execution segments of every load model: N segments of W workers each together produce the configured
 * load exactly once. Open models (rate, open count, throughput) are checked through the real `pace`
 * with the whole schedule already due (no sleeping); closed models (connections, closed count) through
 * `shareOf` with each worker's stripe, as the executors call it.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import {
  constantSchedule,
  phasesSchedule,
  type Schedule,
  shareOf,
  stripeOf,
  withWarmup,
} from "./schedule.ts";
import { pace } from "./pacer.ts";
import type { LoadContext } from "./executor.ts";
import { WorkerSteering } from "./steer.ts";
import { type AttackConfig, parseAttackConfig } from "../config.ts";
import { ConfigError } from "../../validation/config_error.ts";

/** Equal lists of send times, within float noise (pace adds and subtracts the start time). */
function assertSameSends(actual: number[], expected: number[], what: string): void {
  assertEquals(actual.length, expected.length, `${what}: count`);
  actual.sort((a, b) => a - b);
  actual.forEach((t, i) =>
    ok(Math.abs(t - expected[i]) < 1e-4, `${what}: send ${i} at ${t}, not ${expected[i]}`)
  );
}

/**
 * The sends `pace` dispatches for one stripe, in ms from the start (every send already due; no late
 * bound, so none is skipped as stale).
 */
async function paced(schedule: Schedule, stripe: { workerIndex: number; workerCount: number }) {
  const startMs = performance.now() - 1e9;
  const config = { lateBoundMs: Infinity };
  const steer = new WorkerSteering(config as unknown as AttackConfig, startMs, Infinity, () => {});
  const ctx = {
    ...stripe,
    config,
    startMs,
    endMs: Infinity,
    stopRequested: false,
    steer,
  } as unknown as LoadContext;
  const times: number[] = [];
  await pace(ctx, schedule, (intendedMs) => times.push(intendedMs - startMs));
  return times;
}

const schedules: Record<string, () => Schedule> = {
  "rate: one phase": () => phasesSchedule([{ durationMs: 2_000, ratePerSec: 97 }]),
  "rate: ramp, pause, spike, warm-up": () =>
    phasesSchedule(withWarmup([
      { durationMs: 3_000, ratePerSec: 10, rampToPerSec: 200 },
      { durationMs: 1_000, ratePerSec: 0 },
      { durationMs: 500, ratePerSec: 333 },
    ], 700)),
  "count: paced": () => constantSchedule(250, { count: 1_001 }),
  "throughput: constant rate": () => constantSchedule(1_234, { durationMs: 1_500 }),
};

for (const [name, build] of Object.entries(schedules)) {
  Deno.test(`segments of ${name}: the union of N segments is the full schedule, striped j mod N`, async () => {
    const full = build();
    const expected = Array.from({ length: full.count }, (_, i) => full.sendTimeMs(i));
    for (const segments of [1, 2, 3, 4, 7]) {
      for (const workers of [1, 2, 3]) {
        const union: number[] = [];
        for (let index = 0; index < segments; index++) {
          const mine: number[] = [];
          for (let w = 0; w < workers; w++) {
            mine.push(...await paced(build(), stripeOf({ index, count: segments }, w, workers)));
          }
          // Segment `index` holds exactly sends j with j mod N = index: the same ramps, 1/N of each.
          const own = expected.filter((_, j) => j % segments === index);
          assertSameSends(mine, own, `${segments} segments x ${workers} workers, #${index}`);
          union.push(...mine);
        }
        assertSameSends(union, expected, `${segments} segments x ${workers} workers`);
      }
    }
  });
}

Deno.test("segments of closed models: connections and counts split evenly and add up exactly", () => {
  for (const total of [1, 2, 5, 10, 17, 100, 1_001]) {
    for (const segments of [1, 2, 3, 4, 7]) {
      for (const workers of [1, 2, 3]) {
        const perSegment = Array.from({ length: segments }, (_, index) => {
          let sum = 0;
          for (let w = 0; w < workers; w++) {
            const stripe = stripeOf({ index, count: segments }, w, workers);
            sum += shareOf(total, stripe.workerIndex, stripe.workerCount);
          }
          return sum;
        });
        const what = `${total} over ${segments} segments x ${workers} workers: ${perSegment}`;
        assertEquals(perSegment.reduce((a, b) => a + b, 0), total, what);
        ok(Math.max(...perSegment) - Math.min(...perSegment) <= 1, what);
      }
    }
  }
});

Deno.test("no segment: a worker's stripe is the worker itself", () => {
  assertEquals(stripeOf(undefined, 2, 3), { workerIndex: 2, workerCount: 3 });
  assertEquals(stripeOf({ index: 1, count: 4 }, 2, 3), { workerIndex: 9, workerCount: 12 });
});

function configIssues(input: Record<string, unknown>): string[] {
  try {
    parseAttackConfig({ url: "http://127.0.0.1:1/", ...input } as Parameters<typeof parseAttackConfig>[0]);
  } catch (err) {
    ok(err instanceof ConfigError);
    return err.issues.map((i) => `${i.path}: ${i.message}`);
  }
  return [];
}

Deno.test("segment config: index below count, enough connections for every shard's workers", () => {
  assertEquals(configIssues({ model: "connections", segment: { index: 1, count: 4 } }), []);
  ok(configIssues({ model: "connections", segment: { index: 4, count: 4 } })[0].startsWith("segment.index"));
  const few = configIssues({
    model: "throughput",
    ratePerSec: 10,
    connections: 3,
    segment: { index: 0, count: 4 },
  });
  ok(few[0].includes("need at least 4 connections"), few[0]);
  // An open-paced count opens connections on demand: its `connections` is not a bound to check.
  assertEquals(
    configIssues({ model: "count", requests: 9, ratePerSec: 5, segment: { index: 0, count: 16 } }),
    [],
  );
});
