import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { nextChangeMs, type Stage, workerConnectionsAt } from "./ramping_connections.ts";
import { connectionsAt } from "../../../results/load_models.ts";
import { stripeOf } from "../schedule.ts";
import { parseAttackConfig } from "../../config.ts";
import { ConfigError } from "../../../validation/config_error.ts";

const STAGES: Stage[] = [
  { durationMs: 30_000, target: 50 },
  { durationMs: 60_000, target: 200 },
  { durationMs: 30_000, target: 0 },
];

Deno.test("stages: linear from 0 to each target, rounded toward the previous target, the last after the end", () => {
  assertEquals(connectionsAt(STAGES, 0), 0);
  assertEquals(connectionsAt(STAGES, 15_000), 25);
  assertEquals(connectionsAt(STAGES, 29_999), 49);
  assertEquals(connectionsAt(STAGES, 30_000), 50);
  assertEquals(connectionsAt(STAGES, 60_000), 125);
  assertEquals(connectionsAt(STAGES, 90_000), 200);
  assertEquals(connectionsAt(STAGES, 105_000), 100);
  assertEquals(connectionsAt(STAGES, 119_999), 1);
  assertEquals(connectionsAt(STAGES, 120_000), 0);
  assertEquals(connectionsAt(STAGES, 500_000), 0);
  // A step: a short stage up, then a plateau.
  const step = [{ durationMs: 1, target: 7 }, { durationMs: 1000, target: 7 }];
  assertEquals(connectionsAt(step, 1), 7);
  assertEquals(connectionsAt(step, 900), 7);
});

Deno.test("stages: a falling count keeps a connection until the line reaches the number below, as k6's", () => {
  // k6's ramping-vus from 3 to 0 over 1 s stops one VU at 1/3 s, one at 2/3 s and the last at 1 s.
  const down = [{ durationMs: 2000, target: 3 }, { durationMs: 1000, target: 0 }];
  assertEquals([2001, 2332, 2334, 2665, 2668, 2999, 3000].map((t) => connectionsAt(down, t)), [
    3,
    3,
    2,
    2,
    1,
    1,
    0,
  ]);
  assertEquals(nextChangeMs(down, 2001), 2000 + 1000 / 3);
});

Deno.test("stages: 4 workers in 2 segments hold the total exactly at every instant (time injected)", () => {
  for (let tMs = 0; tMs <= 121_000; tMs += 37) {
    let sum = 0;
    for (let segment = 0; segment < 2; segment++) {
      for (let worker = 0; worker < 4; worker++) {
        // As a worker sees itself: its stripe of the whole load (segments are one more level of striping).
        const { workerIndex, workerCount } = stripeOf({ index: segment, count: 2 }, worker, 4);
        const mine = workerConnectionsAt(STAGES, tMs, workerIndex, workerCount);
        const total = connectionsAt(STAGES, tMs);
        // Floor/ceil shares: no worker is more than one from another.
        ok(Math.abs(mine - total / 8) < 1, `t=${tMs}: worker share ${mine} of ${total}`);
        sum += mine;
      }
    }
    assertEquals(sum, connectionsAt(STAGES, tMs), `t=${tMs}`);
  }
  // The warm-up (before 0) holds the first stage's target.
  assertEquals(workerConnectionsAt(STAGES, -1, 0, 1), 50);
});

Deno.test("stages: bad ones are refused with the stage's path", () => {
  const url = "http://127.0.0.1:1/";
  const problems = (stages: unknown) => {
    try {
      parseAttackConfig({ url, model: "ramping-connections", stages } as never);
    } catch (err) {
      ok(err instanceof ConfigError);
      return err.issues.map((i) => `${i.path}: ${i.message}`);
    }
    return [];
  };
  assertEquals(problems([]), ["stages: needs at least one stage (found a list of 0)"]);
  ok(
    problems([{ durationMs: 1000, target: 5 }, { durationMs: 1000, target: -1 }])[0].startsWith(
      "stages[1].target",
    ),
  );
  ok(problems([{ durationMs: -5, target: 5 }])[0].startsWith("stages[0].durationMs"));
  ok(problems([{ durationMs: 1000, target: 1_000_001 }])[0].includes("at most 1,000,000"));
  assertEquals(problems([{ durationMs: 1000, target: 0 }]), [
    "stages: no stage opens a connection: give one a target >= 1",
  ]);
  assertEquals(problems([{ durationMs: 1000, target: 3 }]), []);
  // Over HTTP/2 a retired stream slot would close its session's other streams: refused, with the fix.
  try {
    parseAttackConfig({
      url,
      model: "ramping-connections",
      stages: [{ durationMs: 1000, target: 3 }],
      protocol: "h2",
    });
    ok(false, "h2 accepted");
  } catch (err) {
    ok(err instanceof ConfigError);
    assertEquals(err.issues.map((i) => i.path), ["protocol"]);
  }
});

Deno.test("stages: the next change of the count is where the line crosses the next whole number", () => {
  assertEquals(nextChangeMs(STAGES, -5), 0);
  assertEquals(nextChangeMs(STAGES, 0), 600); // 0 -> 50 over 30 s: one more every 600 ms
  assertEquals(nextChangeMs(STAGES, 601), 1_200);
  assertEquals(nextChangeMs(STAGES, 29_999), 30_000);
  // Down 200 -> 0 over 30 s: 150 ms a step; from 101 (the line at 100.5, 104_925) to 100 at 105_000.
  assertEquals(nextChangeMs(STAGES, 104_925), 105_000);
  assertEquals(nextChangeMs([{ durationMs: 1000, target: 3 }, { durationMs: 1000, target: 3 }], 1200), 2000);
  assertEquals(nextChangeMs(STAGES, 120_000), Infinity);
  // Sampled finely, the count never changes between a time and its next change.
  for (let tMs = 0; tMs < 120_000; tMs += 97) {
    const next = nextChangeMs(STAGES, tMs);
    const before = connectionsAt(STAGES, tMs);
    for (const probe of [tMs + (next - tMs) / 3, tMs + (2 * (next - tMs)) / 3]) {
      assertEquals(connectionsAt(STAGES, probe), before, `t=${tMs} probe=${probe} next=${next}`);
    }
    // It moves there, except at a stage end where the line already reached its target.
    ok(connectionsAt(STAGES, next + 0.5) !== before || [30_000, 90_000, 120_000].includes(next), `t=${tMs}`);
  }
});
