import assert from "node:assert/strict";
import { makeSeed000 } from "../../tests/fixtures/make_results.ts";
import { makeRun } from "../../tests/fixtures/make_run.ts";
import { meanCi } from "../stats.ts";
import { analysisGroupKey, analyze, kneeOf } from "./analysis.ts";

Deno.test("analyze groups repeats by variant x load and gives mean, stdev and CI of each metric", () => {
  const results = makeSeed000(3, 5);
  const a = analyze(results.runs, { baseline: "no-cache" });
  const high = a.groups.find((g) => g.key === "no-cache/high")!;
  assert.deepEqual(high.runs, ["no-cache/high#0", "no-cache/high#1", "no-cache/high#2"]);
  const runs = results.runs.filter((r) => high.runs.includes(r.name));
  const rps = meanCi(runs.map((r) => r.rps));
  assert.equal(high.metrics.rps.n, 3);
  assert.equal(high.metrics.rps.mean, rps.mean);
  assert.equal(high.metrics.rps.ci95, rps.ci95);
  assert.ok(high.metrics.p50.stdev > 0);
  assert.equal(high.metrics.success.mean, meanCi(runs.map((r) => r.successRate * 100)).mean);
  assert.equal(high.sweep, null);
  // Runs without repeats (the sweep, the hostile run) are groups of one with a NaN interval.
  const sweep = a.groups.find((g) => g.key === "node-single//rate=5000")!;
  assert.equal(sweep.metrics.rps.n, 1);
  assert.ok(Number.isNaN(sweep.metrics.rps.ci95));
});

Deno.test("comparisons against the baseline use the spread between repeats when every group has them", () => {
  const results = makeSeed000(3, 5);
  results.runs = results.runs.filter((r) => r.repeat !== undefined);
  const a = analyze(results.runs, { baseline: "no-cache" });
  assert.equal(a.noiseRule, "repeats");
  assert.equal(a.comparisons.length, 4 * 4); // 4 loads x 4 metrics
  const p50 = a.comparisons.find((c) => c.group === "redis-cache/burst" && c.metric === "p50")!;
  assert.equal(p50.baselineGroup, "no-cache/burst");
  assert.ok(p50.changePct < -99, String(p50.changePct));
  assert.equal(p50.beyondNoise, true);
  // Two variants of the same target: their differences are within the spread between repeats.
  const same = ["a", "b"].flatMap((variant) =>
    [0, 1, 2].map((repeat) =>
      makeRun({
        name: `${variant}/l#${repeat}`,
        variant,
        load: "l",
        repeat,
        rps: 100,
        durationSec: 5,
        dist: { medianMs: 5, sigma: 0.5 },
        seed: 17 * repeat + variant.charCodeAt(0),
      })
    )
  );
  const twins = analyze(same, { baseline: "a" });
  assert.deepEqual(twins.comparisons.map((c) => [c.metric, c.beyondNoise]), [
    ["rps", false],
    ["p50", false],
    ["p99", false],
    ["success", false],
  ]);
});

Deno.test("with one repeat the within-run rule judges, and says so", () => {
  const results = makeSeed000(1, 10);
  const a = analyze(results.runs.filter((r) => r.repeat !== undefined), { baseline: "no-cache" });
  assert.equal(a.noiseRule, "within-run");
  const p50 = a.comparisons.find((c) => c.group === "redis-cache/high" && c.metric === "p50")!;
  assert.equal(p50.beyondNoise, true);
  assert.equal(analyze(results.runs).comparisons.length, 0);
});

Deno.test("a change the rule cannot judge is marked unknown, never within noise", () => {
  // One half-second run a side: two intervals, fewer than three batches, so the within-run rule has nothing
  // to judge.
  const short = ["a", "b"].map((variant, i) =>
    makeRun({
      name: `${variant}/l`,
      variant,
      load: "l",
      rps: variant === "a" ? 100 : 100_000,
      durationSec: 0.5,
      dist: { medianMs: 5, sigma: 0.5 },
      seed: 3 + i,
    })
  );
  const a = analyze(short, { baseline: "a" });
  assert.equal(a.noiseRule, "within-run");
  const rps = a.comparisons.find((c) => c.metric === "rps")!;
  assert.ok(rps.changePct > 1000, String(rps.changePct));
  assert.deepEqual([rps.beyondNoise, rps.noiseUnknown], [false, true]);
});

Deno.test("probe and incomplete runs stay out of the groups", () => {
  const runs = [
    makeRun({
      name: "d/l#0",
      variant: "d",
      load: "l",
      repeat: 0,
      rps: 100,
      dist: { medianMs: 5, sigma: 0.5 },
    }),
    {
      ...makeRun({
        name: "d/l#1",
        variant: "d",
        load: "l",
        repeat: 1,
        rps: 9,
        dist: { medianMs: 5, sigma: 0.5 },
      }),
      incomplete: true,
    },
    {
      ...makeRun({ name: "probe", variant: "d", load: "l", rps: 1, dist: { medianMs: 5, sigma: 0.5 } }),
      probe: true,
    },
  ];
  const [group] = analyze(runs).groups;
  assert.deepEqual(group.runs, ["d/l#0"]);
});

Deno.test("group keys follow the run names without the repeat", () => {
  const run = makeRun({
    name: "x",
    variant: "single",
    load: "cpu",
    rps: 1,
    dist: { medianMs: 1, sigma: 0.5 },
  });
  assert.equal(
    analysisGroupKey({ ...run, sweep: { parameter: "query.ms", value: 5 } }),
    "single/cpu/query.ms=5",
  );
  assert.equal(
    analysisGroupKey({ ...run, sweep: { parameter: "a", value: 1 }, sweep2: { parameter: "b", value: 2 } }),
    "single/cpu/a=1/b=2",
  );
  assert.equal(analysisGroupKey({ ...run, variant: undefined, load: undefined, name: "attack#2" }), "attack");
});

Deno.test("the knee of a rate sweep is the last rate kept up with; an SLO can put it earlier", () => {
  // The fixture's runs above 5000 req/s are generator-bound: loadlab's bend, no knee of the target's.
  const generatorBound = makeSeed000(1, 5).runs;
  const [none] = analyze(generatorBound).knees;
  assert.equal(none.value, null);
  assert.match(
    none.reason,
    /^kept up with every requested rate among the points judged \(6000, 8000, 10000 not judged: generator-bound\)/,
  );
  // The same short rates with the server as the limit are the target's knee.
  const runs = generatorBound.map((r) =>
    r.generatorBound ? { ...r, generatorBound: false, serverBound: true } : r
  );
  const [knee] = analyze(runs).knees;
  assert.deepEqual([knee.variant, knee.parameter, knee.value], ["node-single", "rate", 5000]);
  assert.match(knee.reason, /below 95% of the requested 6000/);
  // p99 of the fixture sweep is ~3.2 x (1.2 + rate / 5000) ms: over 5.5 ms from 3000 req/s on.
  const [slo] = analyze(runs, { sloP99Ms: 5.5 }).knees;
  assert.equal(slo.value, 2000);
  assert.match(slo.reason, /over the SLO's 5.5 ms, at 3000/);
});

Deno.test("kneeOf: Kneedle for other parameters, none when healthy, none when the SLO fails at once", () => {
  const cpu = [0, 10, 20, 50, 100, 200].map((x) => ({
    x,
    rps: 10000 / (1 + x / 10),
    p99Ms: 1,
    targetRps: null,
  }));
  assert.deepEqual(kneeOf("query.ms", cpu), {
    value: 50,
    reason: "largest bend of req/s over query.ms (Kneedle)",
  });
  const healthy = [1, 2, 3].map((x) => ({ x: x * 100, rps: x * 100, p99Ms: 1, targetRps: x * 100 }));
  assert.equal(kneeOf("load.rate", healthy).value, null);
  assert.equal(kneeOf("load.rate", healthy).reason, "kept up with every requested rate");
  assert.equal(kneeOf("load.rate", healthy, 0.5).value, null);
  assert.match(kneeOf("load.rate", healthy, 0.5).reason, /from the lowest value/);
});

Deno.test("a sweep over words is categories: grouped per word, no knee, and the reason says so", () => {
  const runs = ["http1", "h2c", "h2"].map((value, i) =>
    makeRun({
      name: `app/few/load.protocol=${value}`,
      variant: "app",
      load: "few",
      sweep: { parameter: "load.protocol", value },
      repeat: 0,
      rps: [1000, 3000, 3100][i],
      durationSec: 2,
      dist: { medianMs: 2, sigma: 0.3 },
    })
  );
  const a = analyze(runs);
  assert.deepEqual(a.groups.map((g) => g.key), [
    "app/few/load.protocol=http1",
    "app/few/load.protocol=h2c",
    "app/few/load.protocol=h2",
  ]);
  assert.equal(a.knees.length, 1);
  assert.equal(a.knees[0].value, null);
  assert.match(a.knees[0].reason, /no knee: load\.protocol's values \(http1, h2c, h2\) are categories/);
});

Deno.test("a grid of words by numbers has its curves along the numbers, one per word", () => {
  const runs = ["h2", "h2c"].flatMap((protocol) =>
    [1, 10, 100].map((streams, i) =>
      makeRun({
        name: `app/few/load.protocol=${protocol}/load.streams=${streams}`,
        variant: "app",
        load: "few",
        sweep: { parameter: "load.protocol", value: protocol },
        sweep2: { parameter: "load.streams", value: streams },
        repeat: 0,
        rps: [1000, 9000, 9500][i],
        durationSec: 2,
        dist: { medianMs: 2, sigma: 0.3 },
      })
    )
  );
  const knees = analyze(runs).knees;
  assert.deepEqual(knees.map((k) => [k.parameter, k.reason.match(/\(at .*\)$/)?.[0]]), [
    ["load.streams", "(at load.protocol=h2)"],
    ["load.streams", "(at load.protocol=h2c)"],
  ]);
});
