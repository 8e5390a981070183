import assert from "node:assert/strict";
import { makeRun } from "../../../tests/fixtures/make_run.ts";
import type { ResultsFile, RunResult } from "../../../results/mod.ts";
import { buildPageData } from "../page/data.ts";
import {
  firstToSteady,
  matrixAxes,
  medianP50Series,
  rpsCells,
  runtimeOf,
  stabilizationCells,
  warmupRatioCells,
} from "./variant_matrix.ts";
import { median } from "../../../results/stats.ts";

/** Two frameworks x two scenarios x three repeats; only "slow" warms up (latency decays from 4x). */
function frameworks(): ResultsFile {
  const runs: RunResult[] = [];
  for (let repeat = 0; repeat < 3; repeat++) {
    for (const [load, rps] of [["json", 9000], ["fib", 900]] as const) {
      for (const variant of ["fast", "slow"]) {
        const run = makeRun({
          name: `${variant}/${load}#${repeat + 1}`,
          variant,
          load,
          repeat,
          model: "connections",
          durationSec: 4,
          rps: variant === "fast" ? rps * 2 + repeat * 10 : rps,
          dist: { medianMs: variant === "fast" ? 2 : 5, sigma: 0.3 },
          warmupFactor: variant === "slow" ? 3 : 0,
          warmupTauSec: 0.3,
        });
        const runtime = variant === "fast" ? "node v20.20.2" : "deno 2.9.6 (npm compat)";
        runs.push({ ...run, targetInfo: { kind: "example", runtime } });
      }
    }
  }
  return {
    schema: "loadlab.results/v3",
    createdAt: "2026-11-21T15:00:00.000Z",
    environment: {
      loadlab: "0.1.0",
      deno: "2.9.6",
      v8: "x",
      typescript: "x",
      os: "linux",
      arch: "x86_64",
      cpu: "cpu",
      cores: 2,
    },
    experiment: { name: "frameworks" },
    runs,
    thresholds: [],
  };
}

Deno.test("variants are rows and loads columns, in run order; no matrix for one variant or one load", () => {
  const data = buildPageData(frameworks());
  assert.deepEqual(matrixAxes(data.runs), { variants: ["fast", "slow"], loads: ["json", "fib"] });
  assert.equal(matrixAxes(data.runs.filter((r) => r.variant === "fast")), null);
  assert.equal(matrixAxes(data.runs.filter((r) => r.load === "json")), null);
});

Deno.test("req/s cells: the overview's mean and 95% CI over repeats, and each variant's runtime", () => {
  const data = buildPageData(frameworks());
  const cells = rpsCells(data, matrixAxes(data.runs)!);
  assert.deepEqual(cells.map((row) => row[1].text), ["node v20.20.2", "deno 2.9.6 (npm compat)"]);
  const row = data.overview.find((o) => o.variant === "fast" && o.load === "fib")!;
  assert.equal(cells[0][3].sort, row.metrics.rps.mean);
  assert.match(cells[0][3].text ?? "", / ± \d/);
  assert.equal(runtimeOf(data.runs, "nobody"), "");
});

Deno.test("stabilization: mean over runs per cell and over all loads; warm-up ratio above 1 only when warming", () => {
  const data = buildPageData(frameworks());
  const axes = matrixAxes(data.runs)!;
  const stab = stabilizationCells(data.runs, axes);
  assert.equal(stab[0][1].sort, 0, "no warm-up: stable from the start");
  assert.ok((stab[1][1].sort as number) > 0, "the warming variant stabilizes later");
  assert.equal(stab[1].length, 1 + axes.loads.length + 1);
  const ratios = warmupRatioCells(data.runs, axes);
  assert.ok((ratios[1][1].sort as number) > 1.5, `slow starts slower: ${ratios[1][1].text}`);
  assert.ok((ratios[0][1].sort as number) < 1.5, `fast does not: ${ratios[0][1].text}`);
  const slow = data.runs.find((r) => r.variant === "slow")!;
  assert.ok(firstToSteady(slow) > 1.5, "its first interval is above the later intervals' median");
  assert.match(ratios[1][1].text ?? "", /^p50 \d+\.\d\d× · req\/s \d+\.\d\d×$/);
  const fast = data.runs.find((r) => r.variant === "fast")!;
  const rps = fast.iv.rps;
  assert.equal(
    firstToSteady(fast, "rps"),
    rps[0] / median(rps.slice(1)),
  );
});

Deno.test("warm-up series: per interval the median over repeats of p50", () => {
  const data = buildPageData(frameworks());
  const series = medianP50Series(data.runs, "slow", "json");
  const runs = data.runs.filter((r) => r.variant === "slow" && r.load === "json");
  assert.equal(series.length, runs[0].iv.p50.length);
  assert.equal(series[0].y, median(runs.map((r) => r.iv.p50[0])));
  assert.ok(series[0].y! > series[series.length - 1].y!, "starts above where it ends");
  assert.deepEqual(medianP50Series(data.runs, "slow", "nothing"), []);
  assert.ok(Number.isNaN(median([])));
});
