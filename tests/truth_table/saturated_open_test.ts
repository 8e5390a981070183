/**
 * @module
 * Truth table, saturated open model: a target of known capacity (200 req/s) asked for 400 req/s. What
 * loadlab concludes must hold by its own numbers: the achieved rate is what was served within the load
 * window (never above the capacity), the responses of the graceful stop's drain are counted apart and
 * shown beside it, the verdict is `server-bound` with the shortfall in its label (not generator-bound),
 * and a run whose queue grew all along never "stabilized".
 */
import assert from "node:assert/strict";
import { runLoadlab, withTempDir } from "../helpers.ts";
import { startCapacityServer } from "../fixtures/capacity_server.ts";
import type { RunResult } from "../../results/mod.ts";

Deno.test("a saturated open model reads server-bound with its shortfall, the drain apart, never stabilized", async () => {
  const server = startCapacityServer({ serviceMs: 20, slots: 4 });
  try {
    await withTempDir(async (dir) => {
      const out = `${dir}/results.json`;
      const { code, stdout, stderr } = await runLoadlab([
        "attack",
        server.url,
        ...["-R", "400", "-d", "1.2s", "--interval", "100ms", "--no-live", "-o", out],
      ]);
      assert.notEqual(code, 2, stderr);
      const run: RunResult = JSON.parse(await Deno.readTextFile(out)).runs[0];
      const drained = run.drained ?? 0;
      assert.ok(drained > 0, `responses after the load's end are counted apart: ${drained}`);
      assert.ok(
        Math.abs(run.rps * run.durationSec - (run.requests - drained)) < 1e-6,
        "the achieved rate is served per second over the window",
      );
      assert.ok(
        run.rps <= server.capacityPerSec * 1.1,
        `achieved ${run.rps} req/s cannot exceed what the target can serve (${server.capacityPerSec})`,
      );
      assert.equal(run.serverBound, true, "the server limited it");
      assert.equal(run.generatorBound, false, "the generator sent the whole rate");
      assert.equal(run.stabilizedAtMs, null, "a queue growing all along is no steady state");
      assert.match(stdout, /Verdict: server-bound: served \d+ of 400 req\/s/);
      assert.match(stdout, /achieved of 400\.00 requested \([\d,]+ drained after the load's end\)/);
    });
  } finally {
    await server.close();
  }
});
