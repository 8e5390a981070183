import assert from "node:assert/strict";
import { buildPageData } from "./data.ts";
import { autoScaleType, barLabel, isolatedPointRadii, logFloor, xy } from "../client/charts.ts";
import { makeSweepMatrix } from "../../../tests/fixtures/make_results.ts";

Deno.test("an interval with no completions is a gap (null) in the chart data, not 0 ms", () => {
  const data = buildPageData(makeSweepMatrix());
  const run = data.runs.find((r) => r.name === "uncached/N=200#0")!;
  for (const col of ["p50", "p75", "p90", "p99", "mean"] as const) {
    assert.equal(run.iv[col][3], null, `${col} of the stalled interval`);
    assert.ok((run.iv[col][2] ?? 0) > 0, `${col} of a busy interval`);
  }
  const points = xy(run.iv.t, run.iv.p50);
  assert.equal(points.length, run.iv.p50.length, "the gap keeps its place on the time axis");
  assert.deepEqual(points[3], { x: 0.75, y: null });
  assert.ok(points.every((p) => p.y === null || p.y > 0), "no 0 ms point anywhere");
});

Deno.test("the stabilization line says when too few intervals answered to judge", () => {
  const data = buildPageData(makeSweepMatrix());
  const short = data.runs.find((r) => r.name === "short")!;
  assert.match(short.stabilization, /too few intervals with responses: 5 of 8, 8 needed/);
  assert.doesNotMatch(short.stabilization, /drifting/);
  const steady = data.runs.find((r) => r.name === "cached/N=50#0")!;
  assert.equal(steady.stabilization, "after 0.00 s");
});

Deno.test("comparison data holds every sweep point, labelled by its parameter and value", () => {
  const results = makeSweepMatrix();
  const data = buildPageData(results);
  const { labels, series } = data.comparison;
  assert.deepEqual(labels, ["concurrency=50", "concurrency=100", "concurrency=200", "(none)"]);
  assert.deepEqual(series.map((s) => s.name), ["cached", "uncached", "(none)"]);
  for (const s of series.slice(0, 2)) {
    s.rows.slice(0, 3).forEach((key, i) => {
      const row = data.overview.find((r) => r.key === key)!;
      const run = results.runs.find((r) => r.name === row.runs[0])!;
      assert.equal(run.variant, s.name);
      assert.equal(`concurrency=${run.sweep!.value}`, labels[i]);
      assert.equal(row.runs.length, 2, "both repeats behind each bar");
    });
  }
});

Deno.test("a chart whose values span more than two decades starts on a log axis", () => {
  const data = buildPageData(makeSweepMatrix());
  const means = data.overview.filter((r) => r.variant !== null).map((r) => r.metrics.mean.mean);
  assert.ok(Math.max(...means) / Math.min(...means) > 100);
  assert.equal(autoScaleType(means), "logarithmic");
  assert.equal(autoScaleType([100, 99.2, 98]), "linear");
  assert.equal(autoScaleType([100, 0.38]), "logarithmic", "a 0.38% success bar beside 100%");
  assert.equal(
    autoScaleType([0, 5, 400]),
    "linear",
    "zeros are not placed on a log axis; 5..400 is <2 decades",
  );
  assert.equal(autoScaleType([null, 3]), "linear");
  assert.equal(logFloor([10, 50_483]), 1, "a bar of exactly 10 keeps a height");
  assert.equal(logFloor([2.83, 3290]), 1);
  assert.equal(logFloor([0.364, 100]), 0.1);
  assert.equal(barLabel(2.5, "ms"), "2.50 ms");
  assert.equal(barLabel(0.38, "%"), "0.38%");
  assert.equal(barLabel(84205.3, "req/s"), "84,205");
});

Deno.test("page data of a --quick run holds the config that ran", () => {
  const results = makeSweepMatrix();
  results.experiment.quick = true;
  results.experiment.ranSource = "loads:\n  n: { duration: 5s }\n";
  const data = buildPageData(results);
  assert.equal(data.experiment.quick, true);
  assert.equal(data.experiment.ranSource, "loads:\n  n: { duration: 5s }\n");
});

Deno.test("a --quick run's page says the values each load ran, not the description's full study", () => {
  const results = makeSweepMatrix();
  assert.equal(buildPageData(results).quickNote, null, "a full run needs no such line");
  results.experiment.quick = true;
  const note = buildPageData(results).quickNote!;
  assert.match(
    note,
    /^Ran with --quick, not the values described above: runs: 5 s; swept concurrency 50, 100, 200\.$/,
  );
});

Deno.test("a sparse latency series gets a dot for each value with no neighbour, so it is not an empty chart", () => {
  const data = [null, 2, null, null, 5, 6, null, 9].map((y, x) => ({ x, y }));
  assert.deepEqual(isolatedPointRadii(data), [0, 3, 0, 0, 0, 0, 0, 3]);
});
