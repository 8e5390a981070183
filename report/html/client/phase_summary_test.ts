import assert from "node:assert/strict";
import { makeExperimentResults } from "../../../tests/fixtures/make_experiment_results.ts";
import { buildPageData } from "../page/data.ts";
import { phaseMeanMs, phaseRows, phaseSummaryCells } from "./experiment.ts";

Deno.test("every run's phases, grouped load, phase, variant, so the variants of one test sit together", () => {
  const data = buildPageData(makeExperimentResults());
  const rows = phaseRows(data.runs);
  const phased = data.runs.filter((r) => !r.probe && r.phases?.length);
  assert.equal(rows.length, phased.reduce((a, r) => a + r.phases!.length, 0));
  // Within a load and phase, one variant's rows come before the next variant's.
  const first = rows.filter((r) => r.load === rows[0].load && r.phase === rows[0].phase);
  const variants = first.map((r) => r.variant);
  assert.deepEqual(variants, [...variants].sort((a, b) => variants.indexOf(a) - variants.indexOf(b)));
  assert.deepEqual([...new Set(variants)], ["no-cache", "redis-cache"]);
  assert.ok(rows.every((r) => !r.run.includes("search:")), "probes are left out");
});

Deno.test("the mean's change is against the baseline variant's mean over repeats, blank on the baseline", () => {
  const rows = phaseRows(buildPageData(makeExperimentResults()).runs);
  const row = rows.find((r) => r.variant === "redis-cache")!;
  const base = phaseMeanMs(rows, row.load, row.phase, "no-cache");
  const cells = phaseSummaryCells(row, base, false);
  assert.ok(Math.abs((cells[5].sort as number) - (row.stats.latencyMs.mean / base - 1) * 100) < 1e-9);
  assert.ok((cells[5].sort as number) < 0, "the cache cuts the mean");
  assert.equal(phaseSummaryCells(row, base, true)[5].text, "–");
  assert.ok(Number.isNaN(phaseMeanMs(rows, row.load, row.phase, "nobody")));
});
