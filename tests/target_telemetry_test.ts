/**
 * What happens inside the target, end to end through `loadlab run` on a small real rate sweep of the
 * built-in target (`/cpu?ms=10` and a Redis GET, restarted for every run): each run records its cold start
 * in order (spawn ≤ listening ≤ ready ≤ first 2xx ≤ run start, ten probe latencies), the target's
 * event-loop telemetry and the Redis server's INFO; the knee of the sweep is explained in one sentence
 * in the findings, from telemetry present on both sides; and the report draws the event-loop, Redis server,
 * cold-start and knee parts in chromium with no console error and no blank chart. No speed is asserted.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { ResultsFile } from "../results/mod.ts";
import { explainKnee } from "../results/conclude/knee/explained.ts";
import { buildFindings } from "../results/conclude/findings.ts";
import { blankCanvases, openReport } from "./browser.ts";
import { requireProgram, runLoadlab, withTempDir } from "./helpers.ts";

const EXPERIMENT = {
  name: "inside",
  targets: { direct: { kind: "builtin", redis: true } },
  requests: ["/cpu?ms=10", "/redis/key:1"],
  loads: { steady: { model: "rate", rate: 4, duration: "2s" } },
  sweeps: [{ parameter: "load.rate", values: [4, 8, 200] }],
  restart: "per-run",
  interval: "250ms",
};

Deno.test({
  name: "a real sweep records cold starts, event loop and Redis INFO, explains its knee, and draws them",
  ignore: !requireProgram("redis-server") || !requireProgram("chromium"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(join(dir, "exp.json"), JSON.stringify(EXPERIMENT));
    const out = join(dir, "out");
    const run = await runLoadlab(["run", join(dir, "exp.json"), "--out-dir", out]);
    assert.ok(run.code === 0 || run.code === 6, `exit ${run.code}: ${run.stderr}`);
    const results: ResultsFile = JSON.parse(await Deno.readTextFile(join(out, "results.json")));
    assert.equal(results.runs.length, 3);
    for (const r of results.runs) {
      const cs = r.coldStart;
      assert.ok(cs, `${r.name} has no cold start`);
      const order = [0, cs.listeningMs!, cs.readyMs, cs.first2xxMs!, cs.runStartMs];
      assert.ok(order.every((v, i) => i === 0 || v >= order[i - 1]), `${r.name} out of order: ${order}`);
      assert.equal(cs.firstRequestsMs.length, 10);
      assert.equal(cs.path, "/cpu?ms=10");
      const runtime = r.telemetry?.find((t) => t.kind === "runtime" && t.name === "target");
      assert.ok(runtime?.samples.some((s) => (s.loopP99Ms ?? 0) > 0), `${r.name}: no loop delay`);
      const redis = r.telemetry?.find((t) => t.kind === "redis");
      assert.ok(
        redis?.samples.some((s) => (s.hits ?? 0) > 0 && s.usedMemoryBytes! > 0),
        `${r.name}: no INFO`,
      );
    }
    const byRate = (x: number) => results.runs.filter((r) => r.sweep?.value === x);
    const knee = results.analysis?.knees[0];
    const kneed = knee?.value === 4 || knee?.value === 8;
    // Where the knee falls depends on the machine (a busy one bends early); without one, the two ends.
    const [lo, hi] = kneed ? [knee!.value!, knee!.value === 4 ? 8 : 200] : [4, 200];
    const explained = explainKnee("direct / steady", "load.rate", { x: lo, runs: byRate(lo) }, {
      x: hi,
      runs: byRate(hi),
    })!;
    console.log(`knee: ${knee?.value ?? "none"} (${knee?.reason}); ${explained.sentence}`);
    for (const side of [explained.below, explained.above]) {
      assert.ok(side.digest.cpuPct !== null && side.digest.loopP99Ms !== null, JSON.stringify(side));
      assert.ok(side.digest.redisOpsPerSec !== null, JSON.stringify(side));
    }
    assert.match(
      explained.sentence,
      new RegExp(`^Above the knee of direct / steady \\(load\\.rate ${lo} → ${hi}\\) .+: .+\\.$`),
    );
    if (kneed) {
      assert.ok(buildFindings(results).some((f) => f.kind === "knee" && f.text === explained.sentence));
    }

    const visit = await openReport(join(out, "report.html"), async (page) => {
      const labels = await page.evaluate(() =>
        [...document.querySelectorAll("canvas")].map((c) => c.getAttribute("aria-label"))
      );
      return {
        labels,
        blank: await blankCanvases(page),
        coldRows: await page.locator("#cold-start tbody tr").count(),
        knees: await page.locator("#knees").count(),
      };
    });
    assert.deepEqual(visit.problems, []);
    for (
      const title of [
        "event loop and GC (deno)",
        "redis server (INFO, SLOWLOG)",
        "cold-start curve of steady: latency since spawn",
      ]
    ) {
      assert.ok(visit.value.labels.includes(title), `no "${title}" chart among ${visit.value.labels}`);
    }
    assert.deepEqual(visit.value.blank, []);
    assert.equal(visit.value.coldRows, 3);
    assert.equal(visit.value.knees, kneed ? 1 : 0);
  });
});
