import assert from "node:assert/strict";
import { makeSweepMatrix } from "../../../tests/fixtures/make_results.ts";
import { makeRun } from "../../../tests/fixtures/make_run.ts";
import type { RunResult, TelemetrySeries } from "../../mod.ts";
import { explainKnee, explainKnees } from "./explained.ts";
import { digestRun } from "../telemetry_digest.ts";
import { buildFindings } from "../findings.ts";

type Sample = TelemetrySeries["samples"][number];

/** A rate sweep point whose target telemetry holds `proc` and `loop` in every sample. */
function point(
  rate: number,
  proc: Partial<Sample>,
  loop: Partial<Sample> = {},
  extra: Partial<RunResult> = {},
) {
  const run = makeRun({
    name: `direct/steady/load.rate=${rate}`,
    variant: "direct",
    load: "steady",
    sweep: { parameter: "load.rate", value: rate },
    rps: rate,
    dist: { medianMs: 2, sigma: 0.3 },
    durationSec: 2,
    telemetry: null,
  });
  const samples = (s: Partial<Sample>) => [0, 250, 500, 750].map((tMs) => ({ tMs, ...s }));
  run.telemetry = [
    { name: "target", kind: "process", samples: samples(proc) },
    { name: "target", kind: "runtime", runtime: "node", samples: samples(loop) },
  ];
  return { ...run, ...extra };
}

Deno.test("a full core above the knee is CPU-bound, the biggest change named first, with the numbers", () => {
  const below = point(100, { cpuPercent: 62 }, { loopP99Ms: 3.1 });
  const above = point(200, { cpuPercent: 99 }, { loopP99Ms: 48 });
  const k = explainKnee("direct / steady", "load.rate", { x: 100, runs: [below] }, {
    x: 200,
    runs: [above],
  })!;
  assert.equal(k.resource, "CPU");
  assert.equal(
    k.sentence,
    "Above the knee of direct / steady (load.rate 100 → 200) event-loop p99 went 3.1 → 48 ms while the " +
      "target process's CPU went from 62% to 99% of a core: CPU-bound.",
  );
});

Deno.test("waiting for a core, GC and the generator are told apart; no telemetry explains nothing", () => {
  const explain = (lo: RunResult, hi: RunResult) =>
    explainKnee("t", "load.rate", { x: 1, runs: [lo] }, { x: 2, runs: [hi] })!;
  const starved = explain(
    point(1, { cpuPercent: 20, runQueueWaitPct: 5 }, { loopP99Ms: 10 }),
    point(2, { cpuPercent: 30, runQueueWaitPct: 60 }, { loopP99Ms: 200 }),
  );
  assert.equal(starved.resource, "CPU (shared)");
  const gc = explain(
    point(1, { cpuPercent: 40 }, { loopP99Ms: 5, gc: { major: { count: 1, ms: 5 } } }),
    point(2, { cpuPercent: 50 }, { loopP99Ms: 6, gc: { major: { count: 9, ms: 60 } } }),
  );
  assert.equal(gc.resource, "GC");
  assert.match(gc.sentence, /GC pauses went 20 → 240 ms per second/);
  const generator = explain(
    point(1, { cpuPercent: 10 }),
    point(2, { cpuPercent: 11 }, {}, { generatorBound: true }),
  );
  assert.equal(generator.resource, "generator");
  assert.match(generator.sentence, /nothing loadlab samples changed by a fifth or more: generator-bound/);
  const bare = { ...point(1, {}), telemetry: undefined };
  assert.equal(explainKnee("t", "x", { x: 1, runs: [bare] }, { x: 2, runs: [bare] }), null);
  assert.equal(digestRun(bare).cpuPct, null);
});

/** A profile summary whose top function `name` took `sharePct` of 1 s of busy time. */
function profiled(run: RunResult, name: string, sharePct: number): RunResult {
  const frames = [{ name, url: "app.js", line: 12 }, { name: "(program)", url: "", line: 0 }];
  const top = [{ frame: 1, selfUs: 900_000, totalUs: 900_000 }, {
    frame: 0,
    selfUs: sharePct * 10_000,
    totalUs: sharePct * 10_000,
  }];
  const summary = {
    durationUs: 2_000_000,
    samples: 2000,
    intervalUs: 1000,
    idleUs: 1_000_000,
    frames,
    tree: [],
    minShare: 0.005,
    top,
    windows: [],
  };
  return { ...run, profiles: [{ process: "target", summary }] };
}

Deno.test("the strongest evidence wins: a profile's hot function, then a CPU wait over the bar, then nothing", () => {
  const explain = (lo: RunResult, hi: RunResult) =>
    explainKnee("t", "load.rate", { x: 1, runs: [lo] }, { x: 2, runs: [hi] })!;
  // Waiting for a core 60% of the time, the profile still names what ran: the app's own sort.
  const hot = explain(
    point(1, { cpuPercent: 30, runQueueWaitPct: 5 }),
    profiled(point(2, { cpuPercent: 35, runQueueWaitPct: 60 }), "sort", 64),
  );
  assert.equal(hot.resource, "CPU (profiled)");
  assert.match(
    hot.sentence,
    /CPU-starved \(its main thread waited for a core 60% of the time\): the profile's top function, sort \(app\.js:12\), took 64% of the target process's busy CPU time\.$/,
  );
  assert.doesNotMatch(hot.sentence, /other processes/);
  // A mostly idle process's top function explains nothing; a steady 31% wait still beats "nothing".
  const idle = explain(
    point(1, { cpuPercent: 8, runQueueWaitPct: 33 }),
    profiled(point(2, { cpuPercent: 8, runQueueWaitPct: 31 }), "sort", 64),
  );
  assert.equal(idle.resource, "CPU (shared)");
  assert.match(idle.sentence, /waited for a core 31% of the time \(33% below the knee already\)/);
  // Starved by the load on a busy machine (its wait risen 8% -> 29%, its CPU 15%): the profile still says
  // what it ran whenever it had a core.
  const starved = explain(
    point(1, { cpuPercent: 12, runQueueWaitPct: 8 }),
    profiled(point(2, { cpuPercent: 15, runQueueWaitPct: 29 }), "sort", 64),
  );
  assert.equal(starved.resource, "CPU (profiled)");
  assert.match(
    starved.sentence,
    /CPU-starved \(its main thread waited for a core 29% of the time\): the profile's top function, sort/,
  );
  // Nothing of a remote target saturated: what to look at is beyond it.
  const remote = { url: "http://10.0.0.7:8080/home", targetInfo: { kind: "url" as const } };
  const calm = explain(
    point(1, { cpuPercent: 8, runQueueWaitPct: 2 }, {}, remote),
    point(2, { cpuPercent: 8, runQueueWaitPct: 3 }, {}, remote),
  );
  assert.equal(calm.resource, "none seen");
  assert.match(calm.sentence, /look beyond the target \(a downstream service, the network\)/);
});

Deno.test("a knee the generator made is named as the generator's; on one machine never a downstream service's", () => {
  const explain = (lo: RunResult, hi: RunResult) =>
    explainKnee("single / static", "load.rate", { x: 5000, runs: [lo] }, { x: 20000, runs: [hi] })!;
  const calm = { cpuPercent: 18, runQueueWaitPct: 3 };
  // cpu-sleep's static endpoint on 2 shared cores: the target's core idle, yet the generator's sends late.
  const behind = explain(
    point(5000, calm, {}, { lateSends: 20, generatorBound: false }),
    point(20000, calm, {}, { lateSends: 900, generatorBound: false }),
  );
  assert.equal(behind.resource, "generator");
  assert.match(
    behind.sentence,
    /sent 0\.\d% → \d\.\d% of its requests late: the generator fell behind \(\d\.\d% of its requests late, 0\.\d% below the knee\): its own event loop was the queue, not the target\.$/,
  );
  const bound = explain(point(5000, calm), point(20000, calm, {}, { generatorBound: true }));
  assert.match(bound.sentence, /generator-bound: the load generator, not the target, limited it/);
  // Neither the target nor the generator saturated, on a loopback target: the machine's, not a network's.
  const shared = explain(point(5000, calm, {}, { lateSends: 0 }), point(20000, calm, {}, { lateSends: 0 }));
  assert.equal(shared.resource, "machine");
  assert.match(shared.sentence, /the knee is the generator's or the machine's \(other work on its cores\)/);
  // A closed sweep: the load worker ran or waited for a core the whole time above the knee, its timers late.
  const worker = (busy: number, wait: number) => (run: RunResult) => ({
    ...run,
    intervals: run.intervals.map((iv) => ({
      ...iv,
      generatorBusyPct: busy,
      generatorWaitPct: wait,
      loopLagMs: 30,
    })),
  });
  const queued = explain(worker(40, 10)(point(5000, calm)), worker(55, 44)(point(20000, calm)));
  assert.equal(queued.resource, "generator");
  assert.match(
    queued.sentence,
    /the load worker ran or waited for a core 50% → 99% of the time: the load worker never slept \(it ran or waited for a core 99% of the time, its timers up to 30 ms late\): the generator was the queue, not the target\.$/,
  );
  for (const k of [behind, bound, shared, queued]) {
    assert.doesNotMatch(k.sentence, /downstream service, the network/);
  }
});

Deno.test("explainKnees follows the stored knee to the next swept value and lands in the findings", () => {
  const runs = [
    point(100, { cpuPercent: 30 }, { loopP99Ms: 2 }),
    point(200, { cpuPercent: 62 }, { loopP99Ms: 3 }),
    point(400, { cpuPercent: 99 }, { loopP99Ms: 50 }),
  ];
  const results = makeSweepMatrix();
  results.runs = runs;
  results.analysis = {
    noiseRule: "within-run",
    groups: [],
    comparisons: [],
    knees: [{ variant: "direct", load: "steady", parameter: "load.rate", value: 200, reason: "r" }],
    searches: [],
  };
  const [k] = explainKnees(results);
  assert.deepEqual([k.below.x, k.above.x, k.resource], [200, 400, "CPU"]);
  assert.deepEqual(k.below.runs, ["direct/steady/load.rate=200"]);
  assert.ok(buildFindings(results).some((f) => f.kind === "knee" && f.text === k.sentence));
});

Deno.test("explainKnees puts a capacity search's passing value beside its first failing probe above", () => {
  const probe = (rate: number, cpu: number) => ({
    ...point(rate, { cpuPercent: cpu }, { loopP99Ms: cpu / 10 }),
    name: `probe@${rate}`,
    probe: true,
  });
  const results = makeSweepMatrix();
  results.runs = [probe(100, 40), probe(400, 100), probe(200, 70)];
  results.analysis = {
    noiseRule: "within-run",
    groups: [],
    comparisons: [],
    knees: [],
    searches: [{
      parameter: "load.rate",
      target: "direct",
      load: "steady",
      slo: "p99 < 100ms",
      value: 200,
      low: { value: 100, run: "probe@100" },
      high: { value: 400, run: "probe@400" },
      confirmRun: null,
      probes: [
        { value: 100, run: "probe@100", ok: true },
        { value: 400, run: "probe@400", ok: false },
        { value: 200, run: "probe@200", ok: true },
      ],
    }],
  };
  const [k] = explainKnees(results);
  assert.deepEqual([k.below.runs, k.above.runs, k.resource], [["probe@200"], ["probe@400"], "CPU"]);
  assert.match(
    k.sentence,
    /^Above the knee of the capacity search of direct \/ steady \(load\.rate 200 → 400\)/,
  );
  // A failing probe loadlab's generator limited failed by loadlab's doing: its telemetry explains nothing.
  results.runs = results.runs.map((r) => r.name === "probe@400" ? { ...r, generatorBound: true } : r);
  assert.deepEqual(explainKnees(results), []);
});
