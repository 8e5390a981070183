/**
 * `loadlab run preset:cache-burst --quick` end to end (docs/studies/cache-burst.md): the CMS-like page alone
 * and behind the Redis caching proxy under the study's six tests. Asserts the direction of the study's
 * finding from results.json, with margins that hold while both cores are busy with other work: uncached
 * success falls well below 100% with timeouts under high and burst load, cached stays at 100% with the
 * mean cut by over 90%. Then the report opens in chromium with no console error and shows the study's
 * bar charts and the per-phase table. Needs redis-server (the proxy starts its own) and chromium.
 */
import assert from "node:assert/strict";
import type { ResultsFile, RunResult } from "../../results/mod.ts";
import { blankCanvases, openReport } from "../browser.ts";
import { requireProgram, runLoadlab } from "../helpers.ts";
import { assertStated, headlineLine } from "./headline.ts";

const LOADS = ["baseline", "moderate", "high", "burst", "spike", "sustained"];
/**
 * The quick study shorter where no assertion reads the length: the three steady loads under the page's
 * capacity a second each (their cached side's success is all that is asserted) and the cooldown, which only
 * lets sockets close, halved. High, burst and spike keep the preset's quick phases: 13 s of its 65 s.
 */
const SHORTER = [
  ...[["baseline", 10], ["moderate", 20], ["sustained", 5]].flatMap(([load, rate]) => [
    "--set",
    `loads.${load}.phases=[{ name: ${load}, duration: 1s, rate: ${rate} }]`,
  ]),
  "--set",
  "cooldown=250ms",
];

function runOf(results: ResultsFile, variant: string, load: string): RunResult {
  const run = results.runs.find((r) => r.variant === variant && r.load === load);
  assert.ok(run, `no run ${variant}/${load} in ${results.runs.map((r) => r.name).join(", ")}`);
  return run;
}

/** The finding: what the study saw before and after the cache, as directions with margins. */
function assertFinding(results: ResultsFile): void {
  for (const load of LOADS) {
    const cached = runOf(results, "cached", load);
    assert.ok(cached.successRate >= 0.99, `cached/${load} success ${cached.successRate}`);
  }
  for (const load of ["high", "burst"]) {
    const direct = runOf(results, "direct", load), cached = runOf(results, "cached", load);
    assert.ok(direct.successRate < 0.8, `direct/${load} success ${direct.successRate} should be < 80%`);
    assert.ok(
      (direct.errors.timeout ?? 0) > 0,
      `direct/${load} has timeouts: ${JSON.stringify(direct.errors)}`,
    );
    assert.ok(
      cached.latencyMs.mean < direct.latencyMs.mean * 0.1,
      `cached/${load} mean ${cached.latencyMs.mean} ms is not 90% under direct's ${direct.latencyMs.mean} ms`,
    );
    // The phases table carries the same story: the timeouts are in direct's phase rows.
    assert.ok(direct.phases!.some((p) => p.timeouts > 0), `direct/${load} phases show timeouts`);
    // Served from Redis, mostly: when the 60 s entry expires mid-test every request that arrives before the
    // refill misses too (the proxy does not coalesce misses), so the test asks only for hits > misses.
    const stats = cached.targetStats ?? {};
    assert.ok(stats.hits > (stats.misses ?? 0), `cached/${load} counters ${JSON.stringify(stats)}`);
  }
}

Deno.test({
  name:
    "preset:cache-burst --quick: uncached fails with timeouts under high and burst, cached holds and is >90% faster",
  ignore: !requireProgram("redis-server"),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const dir = await Deno.makeTempDir({ prefix: "loadlab_cache_burst_" });
    try {
      const out = await runLoadlab(["run", "preset:cache-burst", "--quick", ...SHORTER, "--out-dir", dir]);
      const results: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/results.json`));
      console.log(out.stdout.split("\n").filter((l) => l.startsWith("run ")).join("\n"));
      assert.deepEqual(
        [results.experiment.preset, results.experiment.quick, results.complete],
        ["cache-burst", true, true],
      );
      assert.deepEqual(results.runs.map((r) => r.name), LOADS.flatMap((l) => [`direct/${l}`, `cached/${l}`]));
      assertFinding(results);
      // The study's headline, stated: 500 requests a side give the success shares to a few points however
      // direct's queue drifts; the mean by batch means with that drift as spread. Only a run loadlab's
      // generator limited on the worse side may keep it unjudged, and the line then names it.
      const loadlabs = [/not judged: direct\/high is (generator-bound|incomplete)/];
      assertStated(headlineLine(out.stdout, "Expected: cached's success"), loadlabs);
      assertStated(headlineLine(out.stdout, "Expected: cached's mean"), loadlabs);
      assert.equal(out.code, 0, out.stderr + out.stdout); // the cached threshold passed

      await t.step({
        name: "the report opens in chromium with the study's charts and the per-phase table",
        ignore: !requireProgram("chromium"),
        async fn() {
          const { problems, value } = await openReport(`${dir}/report.html`, async (page) => ({
            comparison: await page.locator("#comparison canvas").count(),
            blank: await blankCanvases(page, "#comparison canvas, #phase-charts canvas"),
            phaseCharts: await page.locator("#phase-charts canvas").count(),
            phaseRows: await page.locator("#phase-summary tbody tr").count(),
            // A run's own phases table (Artillery's per-phase summary) in its details.
            runPhases: await page.selectOption("#run-picker", "direct/spike")
              .then(() => page.locator("#run-body #phases tbody tr").count()),
          }));
          assert.deepEqual(problems, []);
          const phases = results.runs.reduce((a, r) => a + (r.phases?.length ?? 0), 0);
          // Req/s, mean, p99 and success across the six tests; per-phase bars only for spike (3 phases).
          assert.deepEqual(value, {
            comparison: 4,
            blank: [],
            phaseCharts: 3,
            phaseRows: phases,
            runPhases: 3,
          });
        },
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
