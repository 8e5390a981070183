import assert from "node:assert/strict";
import { makeRun } from "../../../tests/fixtures/make_run.ts";
import { buildPageData } from "../page/data.ts";
import type { ResultsFile, RunResult } from "../../../results/mod.ts";
import { counterCells, counterNames } from "./experiment.ts";

function run(name: string, variant: string, targetStats?: Record<string, number>): RunResult {
  const r = makeRun({
    name,
    variant,
    load: "closed",
    rps: 100,
    dist: { medianMs: 1, sigma: 0.3 },
    durationSec: 1,
  });
  return targetStats ? { ...r, targetStats } : r;
}

function pageRuns(runs: RunResult[]) {
  const results = {
    schema: "loadlab.results/v3",
    createdAt: "2026-11-21T15:00:00.000Z",
    environment: {
      loadlab: "0",
      deno: "2",
      v8: "1",
      typescript: "5",
      os: "linux",
      arch: "x86_64",
      cpu: "x",
      cores: 2,
    },
    experiment: { name: "t" },
    runs,
    thresholds: [],
  } as ResultsFile;
  return buildPageData(results).runs;
}

Deno.test("counters non-zero in some run, all-zero ones left out; a dash where a target has none", () => {
  const runs = pageRuns([
    run("uncached/a", "uncached", { cmsQueries: 0 }),
    run("cached/a", "cached", { cacheHits: 400, cacheMisses: 4, staleHits: 100, cmsQueries: 0 }),
    run("plain/a", "plain"),
  ]);
  const names = counterNames(runs);
  assert.deepEqual(names, ["cacheHits", "cacheMisses", "staleHits"]);
  assert.deepEqual(counterCells(runs[0], names, true).map((c) => c.text), [
    "uncached/a",
    "uncached",
    "–",
    "–",
    "–",
    "–",
  ]);
  const cached = counterCells(runs[1], names, true);
  assert.deepEqual(cached.map((c) => c.text), ["cached/a", "cached", "400", "4", "100", "25.0%"]);
  assert.equal(cached[5].cls, "bad", "stale hits are flagged");
  assert.equal(
    counterCells(runs[1], names, false).length,
    5,
    "no share column without cacheHits and staleHits",
  );
});

Deno.test("a run with a warm-up shows its counters after the warm-up, the whole run's beside them", () => {
  const warm = {
    ...run("cached/w", "cached", { cacheHits: 124063, cacheMisses: 4, staleHits: 300 }),
    warmupSec: 5,
    targetStatsMeasured: { cacheHits: 48581, cacheMisses: 0, staleHits: 120 },
  };
  const [page] = pageRuns([warm]);
  const names = counterNames([page]);
  const cells = counterCells(page, names, true);
  assert.equal(cells[2].text, "48,581 (124,063 with warm-up)");
  assert.equal(cells[2].sort, 48581);
  assert.equal(cells[3].text, "0 (4 with warm-up)");
  assert.equal(cells[5].text, "0.2%", "the stale share of the measured hits");
});
