/**
 * `loadlab run FILE --replay results.json` end to end against the built-in target app: a run recorded
 * with steering (a rate change, a pause, a resume) is run again from the file with the same changes at
 * the same instants, so the target receives exactly the sends of the steered schedule and the new results
 * record the changes as replayed; a replay file without a steered run, or naming a run this experiment
 * does not have, is exit 2 before any load.
 */
import { loadlabInProcess } from "./in_process.ts";
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { createTargetApp } from "../targets/app/app.ts";
import { withTempDir } from "./helpers.ts";
import type { ResultsFile } from "../results/mod.ts";
import { phasesSchedule } from "../runner/load/schedule.ts";
import { steeredPhases } from "../runner/load/steer_schedule.ts";

const changes = [
  { atSec: 0.3, action: "rate", ratePerSec: 120, by: "dashboard" },
  { atSec: 0.8, action: "pause", by: "dashboard" },
  { atSec: 1.4, action: "resume", by: "terminal" },
] as const;

Deno.test("run --replay: the recorded changes run again at their instants; bad replay files are exit 2", async () => {
  const app = createTargetApp();
  let received = 0;
  const target = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    received++;
    return app.fetch(req);
  });
  await withTempDir(async (dir) => {
    const exp = join(dir, "exp.yaml");
    await Deno.writeTextFile(
      exp,
      `name: replayed
targets:
  here: { url: "http://127.0.0.1:${target.addr.port}" }
loads:
  steady: { model: rate, rate: 30, duration: 2s, lateBound: 60s, requests: [/json] }
`,
    );
    const first = await loadlabInProcess(["run", exp, "--out-dir", join(dir, "a")]);
    assertEquals(first.code, 0, first.stderr);
    const recorded: ResultsFile = JSON.parse(await Deno.readTextFile(join(dir, "a", "results.json")));
    const name = recorded.runs[0].name;
    // As a steered run records them (a run recorded live has the same shape: results.json `steering`).
    recorded.runs[0].steering = changes.map((c) => ({ ...c }));
    const steeredFile = join(dir, "steered.json");
    await Deno.writeTextFile(steeredFile, JSON.stringify(recorded));

    const before = received;
    const replay = await loadlabInProcess(["run", exp, "--out-dir", join(dir, "b"), "--replay", steeredFile]);
    assertEquals(replay.code, 0, replay.stderr);
    const replayed: ResultsFile = JSON.parse(await Deno.readTextFile(join(dir, "b", "results.json")));
    const run = replayed.runs[0];
    assertEquals(run.name, name);
    assertEquals(run.steering, changes.map((c) => ({ ...c, by: "replay" })));
    const expected = phasesSchedule(
      steeredPhases(
        [{ durationMs: 2_000, ratePerSec: 30 }],
        changes.map((c) => ({ ...c, atMs: c.atSec * 1000 })),
      ),
    ).count;
    assertEquals([run.requests, received - before, run.droppedSends], [expected, expected, 0]);
    ok(expected > 30 * 2, `${expected} sends: the raised rate ran`);

    const unsteered = await loadlabInProcess([
      "run",
      exp,
      "--out-dir",
      join(dir, "c"),
      "--replay",
      join(dir, "a", "results.json"),
    ]);
    assertEquals(unsteered.code, 2);
    ok(/no run in it was steered/.test(unsteered.stderr), unsteered.stderr);
    recorded.runs[0].name = "elsewhere/steady";
    await Deno.writeTextFile(steeredFile, JSON.stringify(recorded));
    const foreign = await loadlabInProcess([
      "run",
      exp,
      "--out-dir",
      join(dir, "c"),
      "--replay",
      steeredFile,
    ]);
    assertEquals(foreign.code, 2);
    ok(/run "elsewhere\/steady" is not a run of this experiment/.test(foreign.stderr), foreign.stderr);
  });
  await target.shutdown();
});
