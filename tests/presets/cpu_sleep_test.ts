/**
 * `loadlab run preset:cpu-sleep --quick` end to end (docs/studies/cpu-sleep.md): wrk2-style constant
 * throughput against the built-in target, sweeping the requested rate on `/`, busy CPU per request and
 * sleep per request, on one instance and on N = cores - 1 behind the balancer. Asserts the direction of the
 * study's finding from results.json with margins that hold while both cores are busy with other work:
 * achieved rate at cpuTime 10 ms under half of that at 1 ms (the server can do at most a tenth), and at
 * sleepTime 10 ms over twice that at cpuTime 10 ms (it is usually 20x or more). Each point is the better of
 * the two variants, since a stall of the shared machine can only take a run's rate down, and the two
 * variants run at different times. The instances comparison is asserted only on 4 cores or more (below,
 * the report must say it cannot show it, which the browser step checks). Then the report opens in
 * chromium with no console error, the sweep charts titled by load and parameter, each with its knee.
 */
import assert from "node:assert/strict";
import type { ResultsFile } from "../../results/mod.ts";
import { blankCanvases, openReport } from "../browser.ts";
import { requireProgram, runLoadlab } from "../helpers.ts";
import { headlineLine } from "./headline.ts";

/** Achieved req/s at `load`'s sweep value `value`: the best of the variants that ran it. */
function best(results: ResultsFile, load: string, value: number, variants = ["single", "cluster"]): number {
  const runs = results.runs.filter((r) =>
    r.load === load && r.sweep?.value === value && variants.includes(r.variant ?? "")
  );
  assert.ok(runs.length > 0, `no ${load} run at ${value}`);
  return Math.max(...runs.map((r) => r.rps));
}

function assertFinding(results: ResultsFile): void {
  const cpu1 = best(results, "cpuTime", 1), cpu10 = best(results, "cpuTime", 10);
  const sleep10 = best(results, "sleepTime", 10);
  assert.ok(cpu10 < cpu1 / 2, `cpuTime 10 ms: ${cpu10} req/s, not under half of 1 ms's ${cpu1}`);
  assert.ok(
    sleep10 > cpu10 * 2,
    `sleepTime 10 ms: ${sleep10} req/s, not over twice cpuTime 10 ms's ${cpu10}`,
  );
  if (results.environment.cores >= 4) {
    // Several instances: sleep scales with them. Margin: 1.3x of the best single-instance run.
    const single = best(results, "sleepTime", 10, ["single"]),
      cluster = best(results, "sleepTime", 10, ["cluster"]);
    assert.ok(cluster > single * 1.3, `cluster sleepTime 10 ms ${cluster} req/s vs single ${single}`);
  }
}

Deno.test({
  name: "preset:cpu-sleep --quick: achieved rate falls steeply with cpuTime, far less with sleepTime",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const dir = await Deno.makeTempDir({ prefix: "loadlab_cpu_sleep_" });
    try {
      const out = await runLoadlab(["run", "preset:cpu-sleep", "--quick", "--out-dir", dir]);
      assert.equal(out.code, 0, out.stderr + out.stdout);
      const results: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/results.json`));
      assert.deepEqual(
        [results.experiment.preset, results.experiment.quick, results.complete],
        ["cpu-sleep", true, true],
      );
      assert.ok(results.runs.every((r) => r.model === "throughput"), "every load is wrk2's model");
      const cluster = results.runs.find((r) => r.variant === "cluster")!;
      assert.equal(cluster.targetInfo?.instances, Math.max(1, results.environment.cores - 1));
      assertFinding(results);
      // The cluster's line needs 4 cores: below that it says so, in the words a reader acts on.
      const headline = headlineLine(out.stdout, "Expected: cluster's req/s");
      if (results.environment.cores < 4) {
        assert.match(headline, /: not judged: needs 4 cores, this machine has \d: run it on 4 cores or more/);
      }
      for (const run of results.runs) {
        assert.ok(run.profiles?.length && run.profiles.every((p) => p.summary), `${run.name} is profiled`);
      }
      const knees = results.analysis?.knees ?? [];
      assert.equal(knees.length, 6, "a knee (or its reason) for each target x sweep");

      await t.step({
        name: "the report opens in chromium: sweeps with knees, the instances section and its caveat",
        ignore: !requireProgram("chromium"),
        async fn() {
          const { problems, value } = await openReport(`${dir}/report.html`, async (page) => ({
            sweepTitles: await page.locator("#sweeps figcaption").allTextContents(),
            kneeNotes: await page.locator("#sweeps .knees li").count(),
            instanceCharts: await page.locator("#instances canvas").count(),
            caveat: await page.locator("#instances-caveat").count(),
            blank: await blankCanvases(page, "#sweeps canvas, #instances canvas"),
            flames: await page.locator("#run-profiles svg.flame").count(),
            kneePairs: await page.locator("#profile-pair option", { hasText: "at the knee" }).count(),
          }));
          assert.deepEqual(problems, []);
          assert.ok(value.flames >= 1, "the first run's flame graph");
          assert.ok(value.kneePairs > 0, "a profile at a knee against the one above it is offered");
          assert.deepEqual(value.sweepTitles.map((s) => s.replace(/y: (log|linear)$/, "").trim()), [
            "single/static: load.rate sweep",
            "cluster/static: load.rate sweep",
            "single/cpuTime: query.ms sweep",
            "cluster/cpuTime: query.ms sweep",
            "single/sleepTime: query.ms sweep",
            "cluster/sleepTime: query.ms sweep",
          ]);
          assert.equal(value.kneeNotes, 6);
          assert.equal(value.instanceCharts, 3);
          assert.equal(value.caveat, results.environment.cores < 4 ? 1 : 0);
          assert.deepEqual(value.blank, []);
        },
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
