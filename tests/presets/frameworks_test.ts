/**
 * `loadlab run preset:frameworks --quick` end to end (docs/studies/frameworks.md): the built-in target and
 * the Express and Fastify apps of examples/ on /json and /fib/23, three repeats, each run on a fresh process
 * with every request logged. Asserts the direction of the study's finding from results.json, with margins
 * meant to hold while both cores are busy with other work: fib(23) costing every framework over twice the
 * target CPU per request of static JSON (req/s is what the study compares, but on a shared core one 2 s run's
 * req/s follows the CPU share the target got, and the json and fib runs of a framework run seconds apart:
 * Express's fib/json req/s ratio, 0.25-0.35 on a quiet machine, once came out over 0.5 at load average ~20,
 * while the CPU each request cost the target does not depend on that share), throughput differing between
 * frameworks, and runs starting slower than they go on (the median over runs of the first interval's req/s
 * over the later intervals' at most 0.9). Also that each run names its runtime (Node or Deno's npm
 * compatibility for the example apps: either is fine here) and has its request log. Then the report opens in
 * chromium with no console error and shows the variants × loads tables and warm-up charts.
 */
import assert from "node:assert/strict";
import type { ResultsFile, RunResult } from "../../results/mod.ts";
import { blankCanvases, openReport } from "../browser.ts";
import { requireProgram, runLoadlab } from "../helpers.ts";
import { assertStated, headlineLine } from "./headline.ts";
import { cpuMsPerRequest } from "./target_cpu.ts";
import { median } from "../../results/stats.ts";

const TARGETS = ["builtin", "express", "fastify"];
const LOADS = ["json", "fib"];

/** Mean req/s of a variant and load over its repeats, as the stored analysis grouped them. */
function meanRps(results: ResultsFile, variant: string, load: string): number {
  const group = results.analysis?.groups.find((g) => g.variant === variant && g.load === load);
  assert.ok(group, `no analysis group ${variant}/${load}`);
  assert.equal(group.metrics.rps.n, 3, `${variant}/${load}: three repeats`);
  return group.metrics.rps.mean;
}

/** Target CPU ms per request of a variant and load over its repeats. */
function cpuMs(results: ResultsFile, variant: string, load: string): number {
  return cpuMsPerRequest(results.runs.filter((r) => r.variant === variant && r.load === load));
}

/**
 * The first interval over the rest of the run (the median of the later intervals, as the report's
 * "First interval / steady state" table), in req/s over every interval or in p50 over the non-empty ones.
 */
function firstToSteady(run: RunResult, column: "rps" | "p50"): number {
  const values = column === "rps"
    ? run.intervals.map((iv) => iv.requests / iv.durationMs)
    : run.intervals.filter((iv) => iv.requests > 0).map((iv) => iv.p50);
  return values[0] / median(values.slice(1));
}

/**
 * The finding, as directions with margins. Warm-up is asserted on throughput: the first 250 ms serve fewer
 * requests than the rest of the run in most runs (median ratio <= 0.9; 0.27-0.68 measured here). The first
 * interval's p50 shows the warm-up too when the machine is quiet (median ratio 1.3-1.9 here), but with both
 * cores busy a closed loop's first answers come while its queue of 50 still fills, which lowers that p50
 * below the steady state's, so it is printed, not asserted (docs/studies/frameworks.md).
 */
function assertFinding(results: ResultsFile): void {
  const rps = Object.fromEntries(
    TARGETS.map((t) => [t, { json: meanRps(results, t, "json"), fib: meanRps(results, t, "fib") }]),
  );
  const table = JSON.stringify(rps);
  const cpu = Object.fromEntries(
    TARGETS.map((t) => [t, { json: cpuMs(results, t, "json"), fib: cpuMs(results, t, "fib") }]),
  );
  const cpuTable = JSON.stringify(cpu, (_, v) => typeof v === "number" ? Number(v.toFixed(4)) : v);
  for (const t of TARGETS) {
    assert.ok(
      cpu[t].fib > 2 * cpu[t].json,
      `${t}: fib(23) not over twice /json's CPU ms/request: ${cpuTable} (req/s ${table})`,
    );
  }
  const json = TARGETS.map((t) => rps[t].json);
  assert.ok(
    Math.max(...json) > 1.5 * Math.min(...json),
    `/json req/s hardly differs between frameworks: ${table}`,
  );
  const byRps = results.runs.map((r) => firstToSteady(r, "rps"));
  const byP50 = results.runs.map((r) => firstToSteady(r, "p50"));
  const show = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(" ");
  assert.ok(
    median(byRps) <= 0.9,
    `runs do not start slower than they end: first/steady req/s ${show(byRps)}`,
  );
  console.log(
    `req/s ${table}; target CPU ms/request ${cpuTable}; first/steady median: req/s ${
      median(byRps).toFixed(2)
    }, p50 ${median(byP50).toFixed(2)}`,
  );
}

Deno.test({
  name: "preset:frameworks --quick: fib(23) far below /json, frameworks differ, runs warm up, runtimes named",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const dir = await Deno.makeTempDir({ prefix: "loadlab_frameworks_" });
    try {
      const out = await runLoadlab(["run", "preset:frameworks", "--quick", "--out-dir", dir]);
      assert.equal(out.code, 0, out.stderr + out.stdout);
      const results: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/results.json`));
      assert.deepEqual([results.experiment.preset, results.experiment.quick, results.complete], [
        "frameworks",
        true,
        true,
      ]);
      const names = [1, 2, 3].flatMap((r) => LOADS.flatMap((l) => TARGETS.map((t) => `${t}/${l}#${r}`)));
      assert.deepEqual(results.runs.map((r) => r.name), names);
      for (const run of results.runs) {
        const runtime = run.targetInfo?.runtime ?? "";
        const expected = run.variant === "builtin" ? /^deno \d/ : /^(node v\d+|deno \S+ \(npm compat\))/;
        assert.match(runtime, expected, `${run.name} names its runtime`);
        const lines = (await Deno.readTextFile(run.logFile!)).trimEnd().split("\n");
        assert.equal(lines[0], "code;startUs;endUs;connection");
        assert.ok(
          lines.length - 1 >= run.requests * 0.99,
          `${run.name}: ${lines.length - 1} logged of ${run.requests}`,
        );
      }
      assertFinding(results);
      // Fastify over Express on /json, by Welch's t over the 3 repeats. A machine busy enough to scatter
      // 2 s repeats leaves it unjudged, and the line says to run without --quick; Fastify's runs, flagged
      // generator-bound, only understate its req/s, so they do not block it.
      assertStated(headlineLine(out.stdout, "Expected: fastify's req/s"), [
        /not judged: noise not judged .*run without --quick/,
        /not judged: express\/json#\d is generator-bound/,
      ]);
      for (const run of results.runs) {
        const [profile] = run.profiles ?? [];
        if (run.variant !== "builtin") {
          assert.equal(profile, undefined, `${run.name}: the Node apps are not profiled in --quick`);
          continue;
        }
        assert.ok(
          profile?.summary && profile.file,
          `${run.name} has a CPU profile: ${JSON.stringify(profile)}`,
        );
        assert.ok((await Deno.stat(`${dir}/${profile.file}`)).size > 0);
      }

      await t.step({
        name: "the report opens in chromium with the variants × loads tables and warm-up charts",
        ignore: !requireProgram("chromium"),
        async fn() {
          const { problems, value } = await openReport(`${dir}/report.html`, async (page) => ({
            rows: await page.locator("#variant-matrix table").first().locator("tbody tr").count(),
            runtimes: await page.locator("#variant-matrix table").first().locator("tbody tr td:nth-child(2)")
              .allTextContents(),
            tables: await page.locator("#variant-matrix table").count(),
            charts: await page.locator("#variant-matrix canvas").count(),
            blank: await blankCanvases(page, "#variant-matrix canvas"),
            flames: await page.locator("#run-profiles svg.flame").count(),
            warmupPairs: await page.locator("#profile-pair option", {
              hasText: "first second of the load vs the rest",
            })
              .count(),
          }));
          assert.deepEqual(problems, []);
          const { flames, warmupPairs, ...tables } = value;
          assert.equal(flames, 1, "the first run's flame graph");
          assert.ok(warmupPairs > 0, "first second vs the rest is offered");
          assert.deepEqual({ ...tables, runtimes: undefined }, {
            rows: 3,
            runtimes: undefined,
            tables: 3,
            charts: 2,
            blank: [],
          });
          assert.ok(value.runtimes.every((r) => /^(node v|deno )/.test(r)), value.runtimes.join(" | "));
        },
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
