/**
 * `loadlab run preset:static-concurrency --quick` end to end (docs/studies/static-concurrency.md): the
 * gzipped sample pages at 10, 200 and 1000 connections (closed model), without and with the response cache.
 * Asserts the direction of the study's finding from results.json, with margins from runs on a machine whose
 * two cores were busy with other work (see the study page, "Numbers measured here"):
 * - throughput does not follow N: at 1000 connections within [0.1, 5]x of that at 10, while N grew 100x
 *   (0.1, not the 0.5 of a quiet machine: with the cores shared by other suites a 1.5 s run at 1000
 *   connections got down to 0.2x of the 10-connection run's req/s here; once, with the target at 2-7% of its
 *   core, 0.06x, which this bound does not survive); outside it the slower run must be one other processes
 *   took a quarter core or more from than from the faster, and its run line must say so;
 * - mean latency grows with N: over 10x from 10 to 1000 connections, and in every run it is N / X within
 *   (0.4, 3) (Little's law, the line the report draws; the band allows for the edges of a 1.5 s run);
 * - the cache makes a request cheaper: target CPU per request (from the CPU telemetry) under 0.6x of the
 *   uncached one. Not req/s: on a busy machine one 1.5 s run's req/s swings 2-10x with the CPU share the
 *   target gets (the cached variant was behind at single points in some runs here), while CPU per request
 *   counts only the target's own work;
 * - the stale-cache pitfall: every cached run counts staleHits (news.html is a new version every second,
 *   the cache keeps it 60 s), the uncached runs none.
 * Then the report opens in chromium with no console error, with the Little's law and target counter sections.
 */
import assert from "node:assert/strict";
import type { ResultsFile, RunResult } from "../../results/mod.ts";
import { littlesLawCurves } from "../../report/html/client/littles_law.ts";
import { blankCanvases, openReport } from "../browser.ts";
import { requireProgram, runLoadlab, withTempDir } from "../helpers.ts";
import { cpuMsPerRequest } from "./target_cpu.ts";
import { assertStated, headlineLine } from "./headline.ts";
import { busyMachineNote, disturbedNote } from "../../results/conclude/own_waits.ts";

const POINTS = [10, 200, 1000];
const VARIANTS = ["uncached", "cached"];

function runAt(results: ResultsFile, variant: string, connections: number): RunResult {
  const name = `${variant}/closed/load.connections=${connections}`;
  const run = results.runs.find((r) => r.name === name);
  assert.ok(run, `no run ${name} in ${results.runs.map((r) => r.name).join(", ")}`);
  return run;
}

/**
 * Flat req/s from 10 to 1000 connections, or, where other processes took more of the slower run's cores than
 * of the faster's (a share that can explain it), that qualification on the slower run's line.
 */
function assertFlat(variant: string, low: RunResult, high: RunResult, stdout: string): void {
  const ratio = high.rps / low.rps;
  if (ratio >= 0.1 && ratio <= 5) return;
  const [slow, fast] = ratio > 5 ? [low, high] : [high, low];
  const note = disturbedNote([slow], [fast]);
  assert.ok(
    note,
    `${variant}: req/s ${low.rps} at 10, ${high.rps} at 1000: not flat, and no neighbour explains it`,
  );
  const line = stdout.split("\n").find((l) => l.includes(`${slow.name} `));
  assert.ok(line?.includes(busyMachineNote(slow)), `${slow.name}'s run line does not say: ${note}\n${line}`);
  console.log(`${variant}: req/s x${ratio.toFixed(2)} from 10 to 1000 connections: inconclusive: ${note}`);
}

function assertFinding(results: ResultsFile, stdout: string): void {
  for (const variant of VARIANTS) {
    const low = runAt(results, variant, 10), high = runAt(results, variant, 1000);
    assertFlat(variant, low, high, stdout);
    assert.ok(
      high.latencyMs.mean > 10 * low.latencyMs.mean,
      `${variant}: mean ${low.latencyMs.mean} ms at 10, ${high.latencyMs.mean} ms at 1000: not growing with N`,
    );
    for (const n of POINTS) {
      const run = runAt(results, variant, n);
      assert.ok(run.successRate >= 0.99, `${run.name} success ${run.successRate}`);
      // Little's law, the line the report draws: N requests in flight, so L = N / X (edges of a short run
      // aside).
      const little = run.latencyMs.mean / (n / run.rps * 1000);
      assert.ok(
        little > 0.4 && little < 3,
        `${run.name}: mean ${run.latencyMs.mean} ms vs N / X (x${little})`,
      );
      const stale = run.targetStats?.staleHits ?? 0;
      if (variant === "cached") {
        assert.ok(stale > 0, `${run.name} counted no staleHits: ${JSON.stringify(run.targetStats)}`);
      } else assert.equal(stale, 0, `${run.name} has no cache, so no stale hit`);
    }
  }
  assert.deepEqual(littlesLawCurves(results.runs).map((c) => c.label), [
    "uncached / closed",
    "cached / closed",
  ]);
  const cpu = VARIANTS.map((v) => cpuMsPerRequest(POINTS.map((n) => runAt(results, v, n))));
  const rps = VARIANTS.map((v) => POINTS.map((n) => Math.round(runAt(results, v, n).rps)));
  assert.ok(cpu[1] < 0.6 * cpu[0], `CPU ms/request uncached ${cpu[0]}, cached ${cpu[1]} (req/s ${rps})`);
  console.log(
    `req/s at ${POINTS}: uncached ${rps[0]}, cached ${rps[1]}; CPU ms/request ${
      cpu.map((c) => c.toFixed(4))
    }`,
  );
}

Deno.test({
  name:
    "preset:static-concurrency --quick: flat req/s, latency ~ N / X, the cache is cheaper and serves stale news",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await withTempDir(async (dir) => {
      const out = await runLoadlab(["run", "preset:static-concurrency", "--quick", "--out-dir", dir]);
      assert.equal(out.code, 0, out.stderr + out.stdout);
      const results: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/results.json`));
      assert.deepEqual(
        [results.experiment.preset, results.experiment.quick, results.complete],
        ["static-concurrency", true, true],
      );
      assert.deepEqual(
        results.runs.map((r) => r.name),
        [200, 10, 1000].flatMap((n) => VARIANTS.map((v) => `${v}/closed/load.connections=${n}`)),
      );
      assertFinding(results, out.stdout);
      // The headline on 1.5 s runs: six 250 ms batches a side. Where a busy machine starved one run, a
      // point may stay unjudged, and the line says to run without --quick; never "within noise" while the
      // cache serves twice the requests or more at every point.
      const rps = [10, 200, 1000].map((n) =>
        runAt(results, "cached", n).rps / runAt(results, "uncached", n).rps
      );
      const line = headlineLine(out.stdout, "Expected: cached's req/s");
      if (rps.every((ratio) => ratio >= 2)) {
        assertStated(line, [
          /reproduced at \d of 3 points.*; run without --quick/,
          /not judged: .*run without --quick/,
        ]);
      } else console.log(`cached/uncached req/s ${rps.map((r) => r.toFixed(2))}: ${line}`);
      await t.step({
        name: "the report opens in chromium with the Little's law and target counter sections",
        ignore: !requireProgram("chromium"),
        fn: () => assertReport(`${dir}/report.html`),
      });
    });
  },
});

async function assertReport(path: string): Promise<void> {
  const { problems, value } = await openReport(path, async (page) => {
    await page.selectOption("#run-picker", "cached/closed/load.connections=1000");
    return {
      littleRows: await page.locator("#littles-law tbody tr").count(),
      blank: await blankCanvases(page, "#littles-law canvas"),
      counterRows: await page.locator("#target-counters tbody tr").count(),
      counterHeads: await page.locator("#target-counters th").allTextContents(),
      runCounters: await page.locator("#run-body .target-stats td").allTextContents(),
      oha: await page.locator("#run-body pre.oha").textContent(),
    };
  });
  assert.deepEqual(problems, []);
  assert.equal(value.littleRows, 2);
  assert.deepEqual(value.blank, []);
  assert.equal(value.counterRows, 6);
  assert.ok(value.counterHeads.includes("staleHits"), value.counterHeads.join(", "));
  assert.ok(value.runCounters.includes("staleHits"), `run details' target table: ${value.runCounters}`);
  assert.match(value.oha ?? "", /Status code distribution:\n {2}\[200\] [\d,]+ responses/);
}
