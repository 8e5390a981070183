import assert from "node:assert/strict";
import { makeSingleAttack } from "../../tests/fixtures/make_results.ts";
import { buildCompare } from "./compare.ts";

Deno.test("report --compare: each cell names the two levels the noise rule compared and what they are", () => {
  const base = makeSingleAttack(), slower = structuredClone(base);
  slower.runs[0].intervals = slower.runs[0].intervals.map((iv) => ({
    ...iv,
    p50: iv.p50 * 2,
    p99: iv.p99 * 2,
  }));
  const [row] = buildCompare(base, slower);
  assert.equal(row.cells.p99.statistic, "geometric mean of the batch means of interval p99s");
  assert.equal(row.cells.p50.statistic, "geometric mean of the batch means of interval p50s");
  const [from, to] = row.cells.p99.compared;
  assert.ok(Math.abs(to / from - 2) < 0.01, `${from} → ${to}`);
  assert.equal(row.cells.p99.verdict, "beyond-noise");
});
