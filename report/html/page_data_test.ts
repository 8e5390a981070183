import assert from "node:assert/strict";
import { buildPageData } from "./page_data.ts";
import { makeSingleAttack } from "../../tests/fixtures/make_results.ts";

Deno.test("the histogram chart uses the log-spaced buckets, and equal-width ones in older files", () => {
  const results = makeSingleAttack();
  const older = buildPageData(results).runs[0];
  assert.deepEqual(older.chartHistogram, older.histogram);
  const logHistogram = [{ fromMs: 0.1, toMs: 0.178, count: 5 }, { fromMs: 0.178, toMs: 0.316, count: 2 }];
  const withLog = { ...results, runs: [{ ...results.runs[0], logHistogram }] };
  assert.deepEqual(buildPageData(withLog).runs[0].chartHistogram, [[0.1, 0.178, 5], [0.178, 0.316, 2]]);
});
