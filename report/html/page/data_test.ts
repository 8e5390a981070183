import assert from "node:assert/strict";
import { buildPageData } from "./data.ts";
import { analyze } from "../../../results/conclude/analysis.ts";
import { makeCpuSleepQuick, makeSingleAttack } from "../../../tests/fixtures/make_results.ts";
import { round4 } from "../../../results/stats.ts";

Deno.test("the histogram chart uses the log-spaced buckets, and equal-width ones in older files", () => {
  const results = makeSingleAttack();
  const older = buildPageData(results).runs[0];
  const bars = results.runs[0].histogram.map((b) => [round4(b.fromMs), round4(b.toMs), b.count]);
  assert.deepEqual(older.chartHistogram, bars);
  const logHistogram = [{ fromMs: 0.1, toMs: 0.178, count: 5 }, { fromMs: 0.178, toMs: 0.316, count: 2 }];
  const withLog = { ...results, runs: [{ ...results.runs[0], logHistogram }] };
  assert.deepEqual(buildPageData(withLog).runs[0].chartHistogram, [[0.1, 0.178, 5], [0.178, 0.316, 2]]);
});

Deno.test("a run's page data carries errors per interval by kind and the generator's verdict", () => {
  const results = makeSingleAttack();
  const run = results.runs[0];
  run.intervals = run.intervals.map((iv, i) => {
    const errorKinds: Record<string, number> = i === 2 ? { timeout: 1, connect: 2 } : { timeout: 0 };
    return { ...iv, errorKinds, serverBoundSends: i === 1 ? 5 : 0 };
  });
  Object.assign(run, { serverBoundSends: 5, serverBound: false, transport: "deno", generatorWarmupMs: 180 });
  const page = buildPageData(results).runs[0];
  const zeros = run.intervals.map(() => 0);
  assert.deepEqual(page.iv.errorKinds, {
    connect: zeros.map((z, i) => (i === 2 ? 2 : z)),
    timeout: zeros.map((z, i) => (i === 2 ? 1 : z)),
  });
  assert.deepEqual(page.iv.serverBoundSends, zeros.map((z, i) => (i === 1 ? 5 : z)));
  assert.equal(page.generator?.kind, "kept-up");
  assert.ok(page.generator?.facts.some(([label, value]) => label === "transport" && value === "deno"));
  // An interval without its kinds (an older file): the page draws the total instead.
  delete run.intervals[0].errorKinds;
  assert.deepEqual(buildPageData(results).runs[0].iv.errorKinds, {});
});

Deno.test("overview rows carry the run verdict, for open models requested, sent and dropped, and a busy machine", () => {
  const data = buildPageData(makeCpuSleepQuick());
  const row = data.overview.find((r) => r.label === "single/cpuTime/query.ms=10")!;
  assert.equal(row.verdict, "dropped 99.7%");
  assert.deepEqual(
    { ...row.sends, droppedShare: Number(row.sends!.droppedShare.toFixed(4)) },
    {
      requestedRps: 20000,
      sent: 94,
      dropped: 29_839,
      droppedShare: 0.9969,
      aboveRequested: false,
      drained: 0,
    },
  );
  assert.equal(data.overview.find((r) => r.label === "cluster/cpuTime/query.ms=0")!.verdict, "ok");
  assert.deepEqual(
    data.thresholds.map((t) => [t.actualText, t.flagged]),
    [["25.61 ms", "on a generator-bound run"], ["73.33%", "on a dropped 99.7%, server errors 22% run"]],
  );
  assert.ok(data.findings.some((f) => f.kind === "flagged"));
  const closed = makeSingleAttack();
  closed.runs[0] = { ...closed.runs[0], model: "connections", targetRps: null };
  assert.equal(buildPageData(closed).overview[0].sends, null);
  assert.equal(buildPageData(closed).overview[0].busyMachine, undefined);
  // A run whose machine worked on other things says so beside its rate; a quiet one says nothing.
  closed.runs[0] = { ...closed.runs[0], hostCpu: { otherCores: 1.1, stallPct: 70, cores: 2 } };
  assert.equal(buildPageData(closed).overview[0].busyMachine, "other processes took 1.1 of the 2 cores");
});

Deno.test("every sweep point's table row has requested, sent, dropped and achieved beside its verdict", () => {
  const data = buildPageData(makeCpuSleepQuick());
  const single = data.sweeps.find((sw) => sw.title.startsWith("single/cpuTime"))!;
  assert.equal(single.rows.length, single.points.length);
  const at10 = single.rows.find((r) => r.x === 10)!;
  assert.equal(at10.verdict, "dropped 99.7%");
  const run = data.runs.find((r) => r.name === "single/cpuTime/query.ms=10")!;
  assert.equal(at10.rps, run.rps);
  assert.deepEqual(
    [at10.sends!.requestedRps, at10.sends!.sent, at10.sends!.dropped],
    [20000, 94, 29_839],
  );
  assert.equal(single.rows.find((r) => r.x === 0)!.verdict, "generator-bound");
  // Each run carries its own verdict and sends for the other tables of sweep points (instances).
  assert.equal(run.verdict, "dropped 99.7%");
  assert.equal(run.sends!.dropped, 29_839);
});

Deno.test("a sweep over words is categorical: points in the file's order, no knee, labels as written", () => {
  const results = makeSingleAttack();
  const base = results.runs[0];
  results.runs = ["http1", "h2c", "h2"].map((value, i) => ({
    ...base,
    name: `app/few/load.protocol=${value}`,
    variant: "app",
    load: "few",
    repeat: 0,
    sweep: { parameter: "load.protocol", value },
    rps: [1000, 3000, 3100][i],
  }));
  const data = buildPageData(results);
  assert.equal(data.sweeps.length, 1);
  const sweep = data.sweeps[0];
  assert.equal(sweep.categorical, true);
  assert.deepEqual(sweep.points.map((p) => p.x), ["http1", "h2c", "h2"]);
  assert.deepEqual(sweep.rows.map((r) => r.x), ["http1", "h2c", "h2"]);
  assert.equal(sweep.knee, null);
  assert.deepEqual(data.comparison.labels, [
    "few · load.protocol=http1",
    "few · load.protocol=h2c",
    "few · load.protocol=h2",
  ]);
  // A numeric sweep stays a numeric axis.
  assert.ok(buildPageData(makeCpuSleepQuick()).sweeps.every((sw) => !sw.categorical));
});

Deno.test("a grid of words by numbers draws one numeric curve per word, with the stored knee of each", () => {
  const results = makeSingleAttack();
  const base = results.runs[0];
  results.runs = ["h2", "h2c"].flatMap((protocol) =>
    [1, 10, 100].map((streams, i) => ({
      ...base,
      name: `app/few/load.protocol=${protocol}/load.streams=${streams}`,
      variant: "app",
      load: "few",
      repeat: 0,
      sweep: { parameter: "load.protocol", value: protocol },
      sweep2: { parameter: "load.streams", value: streams },
      rps: [1000, 9000, 9500][i] * (protocol === "h2" ? 1 : 0.5),
    }))
  );
  results.analysis = analyze(results.runs);
  const sweeps = buildPageData(results).sweeps;
  assert.deepEqual(sweeps.map((sw) => sw.title), [
    "app/few: load.streams at load.protocol=h2",
    "app/few: load.streams at load.protocol=h2c",
  ]);
  assert.ok(sweeps.every((sw) => !sw.categorical));
  assert.deepEqual(sweeps[1].points.map((p) => [p.x, p.rps]), [[1, 500], [10, 4500], [100, 4750]]);
  assert.ok(sweeps.every((sw, i) => sw.kneeReason?.endsWith(`(at load.protocol=${["h2", "h2c"][i]})`)));
});

Deno.test("each point of a grid is an overview row of its own, never a repeat of its neighbours", () => {
  const results = makeSingleAttack();
  results.runs = [1, 10].flatMap((streams) =>
    [0, 1].map((repeat) => ({
      ...results.runs[0],
      name: `app/few/load.protocol=h2/load.streams=${streams}#${repeat + 1}`,
      variant: "app",
      load: "few",
      repeat,
      sweep: { parameter: "load.protocol", value: "h2" },
      sweep2: { parameter: "load.streams", value: streams },
    }))
  );
  assert.deepEqual(buildPageData(results).overview.map((row) => [row.label, row.runs.length]), [
    ["app / few / load.protocol=h2, load.streams=1", 2],
    ["app / few / load.protocol=h2, load.streams=10", 2],
  ]);
});

Deno.test("a sweep in a file with no stored analysis gets its knee by the findings' rule, not one of its own", () => {
  const results = makeSingleAttack();
  const base = { ...results.runs[0], generatorBound: false, serverBound: false, droppedSends: 0 };
  results.runs = [[1000, 1000], [2000, 2000], [4000, 3950], [8000, 4000]].map(([rate, rps]) => ({
    ...base,
    name: `app/steady/load.rate=${rate}`,
    variant: "app",
    load: "steady",
    sweep: { parameter: "load.rate", value: rate },
    targetRps: rate,
    rps,
    // The bend at 8000 is loadlab's: its generator fell behind.
    generatorBound: rate === 8000,
  }));
  delete results.analysis;
  const [sweep] = buildPageData(results).sweeps;
  assert.equal(sweep.knee, null);
  assert.match(sweep.kneeReason!, /8000 not judged: generator-bound/);
});

Deno.test("a run's success rate carries the terminal's dropped-sends qualifier, and none without drops", () => {
  const data = buildPageData(makeCpuSleepQuick());
  const dropped = data.runs.find((r) => r.droppedSends > 0)!;
  assert.equal(dropped.successQualifier, " of sent; 99.7% of intended sends dropped");
  assert.equal(buildPageData(makeSingleAttack()).runs[0].successQualifier, "");
});
