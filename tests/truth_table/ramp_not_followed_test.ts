/**
 * @module
 * Truth table, a ramp the generator could not follow: session scripts on one worker that each spend
 * 20 ms of CPU before every request, ramped to 200 sessions in 1 s. Starting them costs 4 s of the
 * worker's CPU for 1 s of ramp, so the connections open far behind the stages whatever the machine's
 * load, while every request sent is answered: the run must say `ramp not followed` with how many
 * connections it held against the plan (recorded per interval in results.json). Beside it a light ramp
 * (40 sessions in 1 s, a 200 ms think time) that follows its stages and reads `ok`. Bounded: 2 s of load
 * each.
 */
import assert from "node:assert/strict";
import { withTempDir } from "../helpers.ts";
import { runVerdict } from "../../results/conclude/run_verdict.ts";
import { connectionsAt } from "../../results/load_models.ts";
import { runScript, sessionScript, withFastServer } from "./script_run.ts";

/** Ramping to `target` sessions in 1 s, then holding them 1 s, on one worker. */
function rampLoad(target: number): string {
  const stages = `[{ duration: "1s", target: ${target} }, { duration: "1s", target: ${target} }]`;
  return `{ model: "connections", stages: ${stages}, workers: 1 }`;
}

Deno.test({
  name: "truth table: a ramp whose connections open far behind its stages reads ramp not followed",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withFastServer((url) =>
      withTempDir(async (dir) => {
        const r = await runScript(dir, "steep", sessionScript(url, rampLoad(200), 20, 0, true));
        assert.equal(r.code, 0, r.stderr);
        const { label } = runVerdict(r.run);
        const m = label.match(/ramp not followed: (\d+) of (\d+) connections at ([\d.]+)s/);
        assert.ok(m, label);
        assert.match(r.stdout, /ramp not followed: \d+ of \d+ connections at/, r.stdout);
        // The label's numbers are the run's own: an interval's gauge against the plan at its start.
        const at = r.run.intervals.find((iv) => iv.startMs / 1000 === Number(m[3]));
        assert.ok(at, label);
        assert.equal(at.connections, Number(m[1]));
        const stages = [{ durationMs: 1000, target: 200 }, { durationMs: 1000, target: 200 }];
        assert.equal(connectionsAt(stages, at.startMs), Number(m[2]));
        assert.ok(Number(m[1]) * 2 < Number(m[2]), label);
      })
    );
  },
});

Deno.test({
  name: "truth table: a light ramp that follows its stages is ok",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withFastServer((url) =>
      withTempDir(async (dir) => {
        const r = await runScript(dir, "light", sessionScript(url, rampLoad(40), 0, 200));
        assert.equal(r.code, 0, r.stderr);
        assert.equal(runVerdict(r.run).label, "ok");
        assert.equal(Math.max(...r.run.intervals.map((iv) => iv.connections)), 40);
      })
    );
  },
});
