/**
 * Open-model start-up end to end: the open model's start-up against the built-in target app behind a counting
 * `Deno.serve`, through real worker isolates. Asserts no speed (the machine may be busy): connects in
 * flight stay within the bound, the target receives exactly the configured requests (neither the
 * generator's warm-up nor the pool sizing sends it one), and a target that holds every connection is
 * reported server-bound, not generator-bound, unless the worker's own clock says it sent as many late.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { createTargetApp } from "../targets/app/app.ts";
import { type AttackConfigInput, parseAttackConfig } from "../runner/config.ts";
import { runAttack } from "../runner/attack.ts";
import { CONNECTS_IN_FLIGHT_PER_WORKER } from "../runner/http/transport/connect_gate.ts";
import type { RunResult } from "../results/mod.ts";
import { MIN_HELD_SENDS } from "../results/conclude/served_rate.ts";
import { keepLoadWorkers } from "../runner/worker/load_worker.ts";

// Many runs in one process: each script-less run's isolates serve the next ones (see the pool).
keepLoadWorkers();

interface CountingTarget {
  url: string;
  received: number;
  close(): Promise<void>;
}

function startTarget(): CountingTarget {
  const app = createTargetApp();
  const t: CountingTarget = { url: "", received: 0, close: () => server.shutdown() };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    t.received++;
    return app.fetch(req);
  });
  t.url = `http://127.0.0.1:${server.addr.port}`;
  return t;
}

async function attack(input: AttackConfigInput): Promise<RunResult> {
  return await runAttack(parseAttackConfig(input));
}

/** Open runs of 400 sends each; a long late bound so a busy machine drops nothing. */
function shortOpenRun(url: string, i: number): AttackConfigInput {
  const common = { url: url + "/", workers: 1 + (i % 2), lateBoundMs: 60_000, intervalMs: 100 };
  return i % 4 < 2
    ? { ...common, model: "count", requests: 400, ratePerSec: 4_000 }
    : { ...common, model: "rate", phases: [{ durationMs: 200, ratePerSec: 2_000 }] };
}

Deno.test("open start-up: 10 short runs, connects bounded, the target sees exactly the configured sends", async () => {
  const target = startTarget();
  try {
    for (let i = 0; i < 10; i++) {
      const before = target.received;
      const input = shortOpenRun(target.url, i);
      const r = await attack(input);
      const sends = input.model === "count" ? input.requests : 400;
      const label = `run ${i} (${input.model}, ${r.workers} workers)`;
      assertEquals(target.received - before, sends, `${label}: the target received exactly ${sends}`);
      assertEquals([r.requests, r.errors, r.droppedSends], [sends, {}, 0], label);
      const bound = CONNECTS_IN_FLIGHT_PER_WORKER * r.workers;
      ok((r.maxConnectsInFlight ?? Infinity) <= bound, `${label}: ${r.maxConnectsInFlight} > ${bound}`);
      ok((r.preConnected ?? 0) >= r.workers, `${label}: a pool at t0 (${r.preConnected})`);
      ok((r.generatorWarmupMs ?? 0) > 0, `${label}: the generator warmed up`);
    }
  } finally {
    await target.close();
  }
});

Deno.test("open start-up: --pre-connect sets the pool, --no-generator-warmup skips the burst, -n stays exact", async () => {
  const target = startTarget();
  try {
    const r = await attack({
      url: target.url + "/",
      model: "count",
      requests: 200,
      ratePerSec: 2_000,
      preConnect: 5,
      generatorWarmup: false,
      lateBoundMs: 60_000,
    });
    assertEquals([target.received, r.requests, r.preConnected, r.generatorWarmupMs], [200, 200, 5, 0]);
    assertEquals(r.preConnectEstimateMs, null, "a given pool size needs no estimate");
  } finally {
    await target.close();
  }
});

Deno.test("open start-up: a target holding every connection is server-bound, not generator-bound", async () => {
  const target = startTarget();
  try {
    // 2 connections, 200 ms per response: 10 req/s served of 100 offered; the sends wait for one.
    const r = await attack({
      url: target.url + "/sleep?ms=200",
      model: "rate",
      phases: [{ durationMs: 1_000, ratePerSec: 100 }],
      maxConnections: 2,
      lateBoundMs: 500,
      timeoutMs: 5_000,
      gracefulStopMs: 500,
    });
    // A send the worker dispatched late counts late, whatever the connections (on a busy machine its timers
    // are late): the waits for a connection must still show, and name the server wherever they outnumber
    // the sends the worker's own clock says it was late for (else either may be named: served_rate.ts).
    const waiting = r.serverBoundSends ?? 0, said = `waiting ${waiting}, late ${r.lateSends}`;
    ok(waiting >= MIN_HELD_SENDS, said);
    if (waiting > r.lateSends) assertEquals([r.serverBound, r.generatorBound], [true, false], said);
    else ok(r.serverBound !== r.generatorBound, said);
    ok(r.connects + (r.preConnected ?? 0) <= 2, `never more than 2 connections (${r.connects})`);
  } finally {
    await target.close();
  }
});
