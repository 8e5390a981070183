/**
 * Steering a running load end to end, through real worker isolates against the built-in target app: a
 * rate raised mid-run shows in the intervals after the change and in the run's `steering`; a pause sends
 * nothing until the resume and counts no drop; a closed run's connections follow a change; a request out
 * of range changes nothing; and replaying the recorded changes gives the same schedule. The conditions
 * are certain on a busy machine: the target counts every request, a send is never earlier than its
 * intended time, and the late bound is long, so nothing is dropped or sent twice.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { createTargetApp } from "../targets/app/app.ts";
import { type AttackConfigInput, parseAttackConfig } from "../runner/config.ts";
import { runAttack } from "../runner/attack.ts";
import { RunSteering } from "../runner/steering.ts";
import { phasesSchedule } from "../runner/load/schedule.ts";
import { basePhasesOf } from "../runner/load/steer.ts";
import { steeredPhases } from "../runner/load/steer_schedule.ts";
import type { RunResult } from "../results/mod.ts";
import type { SteerChange } from "../results/schema/steering.ts";
import { keepLoadWorkers } from "../runner/worker/load_worker.ts";

// Many runs in one process: each script-less run's isolates serve the next ones (see the pool).
keepLoadWorkers();

function startTarget() {
  const app = createTargetApp();
  const t = { url: "", received: 0, close: () => server.shutdown() };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    t.received++;
    return app.fetch(req);
  });
  t.url = `http://127.0.0.1:${server.addr.port}/`;
  return t;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Calls `steps` (at ms from the measured start) on `steering` while `input` runs. */
async function steeredRun(
  input: AttackConfigInput,
  steps: Array<[number, Parameters<RunSteering["request"]>[0]]>,
): Promise<{ run: RunResult; refused: string[] }> {
  const steering = new RunSteering();
  const refused: string[] = [];
  let started: (at: number) => void = () => {};
  const origin = new Promise<number>((r) => started = r);
  const config = parseAttackConfig(input);
  const running = runAttack(config, { steering, onStart: (at) => started(at + config.warmupMs) });
  const originEpochMs = await origin;
  for (const [atMs, req] of steps) {
    await sleep(originEpochMs + atMs - Date.now());
    const out = steering.request(req, "terminal");
    if (!out.ok) refused.push(`${out.status} ${out.reason}`);
  }
  return { run: await running, refused };
}

/** Sends the steered schedule has (the plan with the recorded changes applied). */
function scheduledSends(input: AttackConfigInput, changes: SteerChange[]): number {
  const config = parseAttackConfig(input);
  const base = basePhasesOf(config, config.warmupMs + ("durationMs" in config ? config.durationMs ?? 0 : 0));
  const atMs = (c: SteerChange) => c.atSec * 1000 + config.warmupMs;
  return phasesSchedule(steeredPhases(base, changes.map((c) => ({ ...c, atMs: atMs(c) })))).count;
}

const common = { workers: 2, intervalMs: 250, lateBoundMs: 60_000, gracefulStopMs: 5_000, timeoutMs: 5_000 };

Deno.test("a rate raised mid-run shows in the intervals within one interval and in the run's steering", async () => {
  const target = startTarget();
  try {
    const input: AttackConfigInput = {
      ...common,
      url: target.url + "json",
      model: "rate",
      phases: [{ durationMs: 3_000, ratePerSec: 20 }],
    };
    const { run, refused } = await steeredRun(input, [[1_000, { action: "rate", ratePerSec: 400 }]]);
    assertEquals(refused, []);
    const [change] = run.steering!;
    assertEquals([change.action, change.ratePerSec, change.by], ["rate", 400, "terminal"]);
    ok(change.atSec >= 1 && change.atSec < 3, `the change's instant ${change.atSec}`);
    // Every scheduled send reached the target once: the new schedule from the change's instant on.
    const expected = scheduledSends(input, run.steering!);
    assertEquals([run.requests, target.received, run.droppedSends], [expected, expected, 0]);
    ok(expected > 20 + 400 * (3 - change.atSec) * 0.99, `${expected} sends`);
    // A response ends after its intended send: the intervals from one interval after the change hold at
    // least the sends scheduled from there on at 400/s, which 20/s could not have given.
    // A send never leaves before its intended time, nor ends before it: the intervals from the first
    // boundary after the change hold at least the sends due there at 400/s, which 20/s could not give.
    const boundaryMs = Math.ceil((change.atSec * 1000) / common.intervalMs) * common.intervalMs;
    const completed = run.intervals.filter((i) => i.startMs >= boundaryMs).reduce(
      (n, i) => n + i.requests,
      0,
    );
    const dueAfter = Math.floor((400 * (3_000 - boundaryMs)) / 1000) - 1;
    ok(dueAfter > 20 * 3, `the change left room to show: ${dueAfter}`);
    ok(completed >= dueAfter, `${completed} responses from ${boundaryMs} ms on, ${dueAfter} due there`);
  } finally {
    await target.close();
  }
});

Deno.test("a pause sends nothing until the resume, counts no drop; the run still ends at its planned end", async () => {
  const target = startTarget();
  try {
    const input: AttackConfigInput = {
      ...common,
      url: target.url + "json",
      model: "rate",
      phases: [{ durationMs: 3_500, ratePerSec: 40 }],
    };
    const { run, refused } = await steeredRun(input, [
      [800, { action: "pause" }],
      [900, { action: "pause" }],
      [2_600, { action: "resume" }],
    ]);
    assertEquals(refused, ["400 already paused"]);
    assertEquals(run.steering!.map((c) => c.action), ["pause", "resume"]);
    const [pause, resume] = run.steering!;
    const expected = scheduledSends(input, run.steering!);
    assertEquals([run.requests, target.received, run.droppedSends], [expected, expected, 0]);
    // 40/s over 3.5 s less the paused span: the sends of the pause were never scheduled.
    const pausedSec = resume.atSec - pause.atSec;
    ok(Math.abs(expected - 40 * (3.5 - pausedSec)) <= 2, `${expected} sends, paused ${pausedSec} s`);
    ok(run.durationSec >= 3.4, `ran its planned length: ${run.durationSec}`);
    // What the run asked for is the steered schedule's rate: the pause is no shortfall of the server.
    ok(Math.abs(run.targetRps! - expected / run.durationSec) < 1, `requested ${run.targetRps} req/s`);
    // Intervals inside the pause, past the responses of the last sends before it, are empty.
    const quiet = run.intervals.filter((i) =>
      i.startMs >= pause.atSec * 1000 + 750 && i.startMs + i.durationMs <= resume.atSec * 1000
    );
    ok(quiet.length >= 2, `${quiet.length} intervals inside the pause`);
    assertEquals(quiet.map((i) => i.requests + i.lateSends), quiet.map(() => 0));
  } finally {
    await target.close();
  }
});

Deno.test("replaying a recorded schedule sends what the steered run sent, and records the same changes", async () => {
  const target = startTarget();
  try {
    const input: AttackConfigInput = {
      ...common,
      url: target.url + "json",
      model: "rate",
      phases: [{ durationMs: 1_000, ratePerSec: 30 }, { durationMs: 1_500, ratePerSec: 60 }],
    };
    const { run } = await steeredRun(input, [
      [300, { action: "rate", ratePerSec: 150 }],
      [600, { action: "end-phase" }],
      [1_100, { action: "pause" }],
      [1_500, { action: "resume" }],
    ]);
    const recorded = run.steering!;
    assertEquals(recorded.map((c) => c.action), ["rate", "end-phase", "pause", "resume"]);
    const before = target.received;
    const replay = await runAttack(parseAttackConfig({ ...input, steering: recorded }));
    assertEquals(replay.requests, run.requests);
    assertEquals(target.received - before, run.requests);
    assertEquals(replay.steering, recorded.map((c) => ({ ...c, by: "replay" })));
    assertEquals(replay.droppedSends, 0);
  } finally {
    await target.close();
  }
});

Deno.test("a closed run follows a connections change; requests out of range or for another model change nothing", async () => {
  const target = startTarget();
  try {
    const input: AttackConfigInput = {
      ...common,
      url: target.url + "json",
      model: "connections",
      connections: 2,
      durationMs: 2_500,
    };
    const { run, refused } = await steeredRun(input, [
      [300, { action: "connections", connections: 0 }],
      [350, { action: "connections", connections: 1.5 }],
      [400, { action: "rate", ratePerSec: 10 }],
      [450, { action: "jump" }],
      [500, { action: "connections", connections: 6 }],
      [1_500, { action: "connections", connections: 2 }],
    ]);
    assertEquals(refused.map((r) => r.split(" (")[0]), [
      "400 connections must be a whole number from 2",
      "400 connections must be a whole number from 2",
      "400 a rate applies to the open models",
      "400 action must be one of pause, resume, rate, connections, end-phase, stop",
    ]);
    assertEquals(run.steering!.map((c) => c.connections), [6, 2]);
    const [up, down] = run.steering!;
    const during = (fromSec: number, toSec: number) =>
      run.intervals.filter((i) =>
        i.startMs >= fromSec * 1000 + 500 && i.startMs + i.durationMs <= toSec * 1000
      );
    // `connections` is counted at each interval's end: 6 open while up, back to 2 after the retirement.
    ok(
      during(up.atSec, down.atSec).every((i) => i.connections === 6),
      JSON.stringify(during(up.atSec, down.atSec).map((i) => i.connections)),
    );
    ok(
      during(down.atSec + 0.5, 2.5).every((i) => i.connections === 2),
      JSON.stringify(during(down.atSec, 2.5).map((i) => i.connections)),
    );
    assertEquals(run.errors, {});
  } finally {
    await target.close();
  }
});
