/**
 * The truth table of the expected directions on results shaped like the presets' quick runs on a busy
 * 2-core machine (numbers from real runs there): an overwhelming difference is judged by the test that
 * fits it, with the test and its margin said; the same target twice (A/A, 20 seeds) is never reproduced.
 */
import assert from "node:assert/strict";
import { makeSweepMatrix } from "../../tests/fixtures/make_results.ts";
import { makeRun } from "../../tests/fixtures/make_run.ts";
import type { IntervalResult, ResultsFile, RunResult } from "../mod.ts";
import type { Expectation } from "./expectation.ts";
import { analyze } from "./analysis.ts";
import { buildFindings } from "./findings.ts";

/**
 * One 250 ms interval of `requests` answers (`failed` of them with a failed status), `errors` failed sends.
 */
function interval(i: number, requests: number, meanMs: number, errors = 0, failed = 0): IntervalResult {
  return {
    startMs: i * 250,
    durationMs: 250,
    requests,
    errors,
    errorKinds: errors ? { timeout: errors } : {},
    failedStatus: failed,
    p50: meanMs * 0.9,
    p75: meanMs * 1.1,
    p90: meanMs * 1.3,
    p99: meanMs * 1.6,
    mean: meanMs,
    max: meanMs * 2,
    bytesRead: requests * 500,
    bytesWritten: requests * 100,
    lateSends: 0,
    inFlight: 0,
    connections: 1,
    statusCodes: { "200": requests - failed },
  };
}

/** A run of `variant` at `load` whose intervals are `ivs`, its totals and summary made to agree with them. */
function runOf(
  variant: string,
  load: string,
  ivs: IntervalResult[],
  extra: Partial<RunResult> = {},
): RunResult {
  const base = makeRun({
    name: `${variant}/${load}`,
    variant,
    load,
    rps: 1,
    dist: { medianMs: 1, sigma: 0.3 },
  });
  const sum = (f: (iv: IntervalResult) => number) => ivs.reduce((a, iv) => a + f(iv), 0);
  const requests = sum((iv) => iv.requests), errors = sum((iv) => iv.errors);
  const meanMs = sum((iv) => iv.mean * iv.requests) / requests;
  const durationSec = ivs.length / 4;
  return {
    ...base,
    intervals: ivs,
    requests,
    rps: requests / durationSec,
    durationSec,
    successRate: (requests - sum((iv) => iv.failedStatus)) / (requests + errors),
    errors: errors ? { timeout: errors } : {},
    errorMessages: {},
    latencyMs: { ...base.latencyMs, mean: meanMs, p50: meanMs * 0.9, p99: meanMs * 1.6 },
    generatorBound: false,
    lateSends: 0,
    stabilizedAtMs: null,
    ...extra,
  };
}

function verdicts(runs: RunResult[], expect: Expectation[], quick = true): string[] {
  const results: ResultsFile = makeSweepMatrix();
  results.runs = runs;
  results.experiment = { ...results.experiment, expect, quick };
  results.analysis = analyze(runs);
  return buildFindings(results).filter((f) => f.kind === "expect").map((f) => f.text);
}

const seq = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));

Deno.test("cache-burst high: 100% vs 32% and a mean 700x lower are reproduced, the queue's drift or not", () => {
  const high = {
    model: "rate" as const,
    targetRps: 100,
    config: { phases: [{ durationMs: 5000, ratePerSec: 100 }] },
  };
  // direct: 6 pages per interval while its queue grows (mean 160 ms -> 3.5 s), then 289 timeouts at the end.
  const direct = runOf("direct", "high", [
    ...seq(19, (i) => interval(i, i === 0 ? 7 : 6, 160 + 180 * i)),
    interval(19, 96, 3570, 289, 50),
  ], high);
  // cached: every send answered in milliseconds, but 3% of them let out late by a busy generator.
  const cached = runOf("cached", "high", seq(20, (i) => interval(i, 25, 1.5 + (i % 5))), {
    ...high,
    generatorBound: true,
    lateSends: 15,
  });
  const [success, mean] = verdicts([direct, cached], [
    { metric: "success", better: "cached", than: "direct", load: "high" },
    { metric: "mean", better: "cached", than: "direct", load: "high" },
  ]);
  assert.match(
    success,
    /: reproduced here \(high: 100\.00% vs 32\.20% \(-68%\), beyond noise by a two-proportion test, \d+ standard errors apart, 500 requests each\)\.$/,
  );
  assert.match(
    mean,
    /: reproduced here \(high: [\d.]+ ms vs [\d.]+ s \(\+[\d,]+%\), beyond noise by batch means, .* drift counted as spread\)\.$/,
  );
  // The generator's late sends only add to cached's own latency: a flag against the direction, not for it.
  // On the worse side it keeps the direction from being judged.
  const flipped = verdicts([{ ...direct, generatorBound: true, lateSends: 20 }, {
    ...cached,
    generatorBound: false,
  }], [
    { metric: "mean", better: "cached", than: "direct", load: "high" },
  ]);
  assert.match(flipped[0], /: not judged: direct\/high is generator-bound/);
});

Deno.test("static-concurrency and delay-cache-limit: short runs judged on their 250 ms intervals", () => {
  // static-concurrency at 200 connections, 1.5 s that never settled: the intervals of a real quick run.
  const closed = (variant: string, rates: number[]) =>
    runOf(variant, "closed", rates.map((r, i) => interval(i, r / 4, 40)), { model: "connections" });
  const uncached = closed("uncached", [2708, 3064, 3996, 4504, 5040, 5680]);
  const cached = closed("cached", [6892, 10144, 9820, 10964, 10724, 11324]);
  const [rps] = verdicts([uncached, cached], [
    { metric: "rps", better: "cached", than: "uncached" },
  ]);
  assert.match(
    rps,
    /: reproduced here \(closed: .* beyond noise by batch means, [\d.]+ standard errors apart, 3 batches of 250 ms each of the final half/,
  );
  // A 1 s delay on 10 connections: 10 answers a second in one interval (the last at the drain), none
  // between; the cache answers in milliseconds once its first misses paid the delay.
  const answered = [4, 8, 12, 15];
  const delayed = runOf(
    "direct",
    "delay-1s",
    seq(16, (i) => interval(i, answered.includes(i) ? 10 : 0, 1004)),
    {
      model: "connections",
    },
  );
  const hits = runOf("cache-limit", "delay-1s", [
    ...seq(4, (i) => interval(i, 0, 0)),
    ...seq(12, (i) => interval(i + 4, 700 + 30 * i, 4 - i * 0.25)),
  ], { model: "connections", stabilizedAtMs: 3000 });
  const [faster, quicker] = verdicts([delayed, hits], [
    { metric: "rps", better: "cache-limit", than: "direct", load: "delay-1s" },
    { metric: "p50", better: "cache-limit", than: "direct", load: "delay-1s" },
  ]);
  assert.match(faster, /: reproduced here .*beyond noise by batch means/);
  assert.match(quicker, /: reproduced here .*beyond noise by batch means/);
});

Deno.test("A/A: the same target twice is never reproduced, whichever way the expectation points", () => {
  const metrics = ["rps", "p50", "p99", "mean", "success"] as const;
  const expect = metrics.flatMap((metric): Expectation[] => [
    { metric, better: "a", than: "b" },
    { metric, better: "b", than: "a" },
  ]);
  const said: string[] = [];
  for (let seed = 1; seed <= 20; seed++) {
    const side = (variant: string, offset: number) =>
      makeRun({
        name: `${variant}/closed`,
        variant,
        load: "closed",
        model: "connections",
        rps: 4000,
        dist: { medianMs: 40, sigma: 0.4 },
        durationSec: 1.5,
        errorShare: 0.01,
        seed: seed * 2 + offset,
      });
    const runs = [side("a", 0), side("b", 1)].map((r) => ({
      ...r,
      generatorBound: false,
      stabilizedAtMs: null,
    }));
    said.push(...verdicts(runs, expect));
  }
  assert.equal(said.length, 200);
  const reproduced = said.filter((t) => /: reproduced here|reproduced at \d/.test(t));
  assert.deepEqual(reproduced, []);
  // And judged: a null difference reads within noise, the other way round or not judged, with the test named.
  assert.ok(said.some((t) => /within noise/.test(t)), said.join("\n"));
});

Deno.test("a difference the quick run cannot put beyond noise says how to get a verdict", () => {
  // Three 2 s repeats a side, 2.8x apart but scattered: Welch's t is past 1.96, short of the bar.
  const repeat = (variant: string, i: number, level: number) =>
    runOf(variant, "json", seq(8, (k) => interval(k, level / 4, 5)), {
      name: `${variant}/json#${i}`,
      repeat: i,
    });
  const runs = [
    ...[7000, 9000, 12000].map((r, i) => repeat("fastify", i, r)),
    ...[2500, 3000, 4500].map((r, i) => repeat("express", i, r)),
  ];
  const expect: Expectation[] = [{ metric: "rps", better: "fastify", than: "express", load: "json" }];
  const [quick] = verdicts(runs, expect);
  assert.match(
    quick,
    /: not judged: noise not judged \(by Welch's t-test over repeats, .* beyond noise needs 5\); run without --quick/,
  );
  const [full] = verdicts(runs, expect, false);
  assert.doesNotMatch(full, /--quick/);
});

/** A closed 1.5 s run of `variant` at `n` connections serving about `rps` (seeded). */
function sweepRun(variant: string, n: number, rps: number, seed: number): RunResult {
  const run = makeRun({
    name: `${variant}/closed/load.connections=${n}`,
    variant,
    load: "closed",
    sweep: { parameter: "load.connections", value: n },
    model: "connections",
    rps,
    dist: { medianMs: 40, sigma: 0.4 },
    durationSec: 1.5,
    seed,
  });
  return { ...run, generatorBound: false, stabilizedAtMs: null };
}

Deno.test("a sweep: the points weighed together when each alone falls short, never for the same target twice", () => {
  const expect: Expectation[] = [{ metric: "rps", better: "cached", than: "uncached" }];
  // Three points of 1.5 s, the cache 1.3x ahead at each: none beyond its own bar, all three together.
  const sides = (seed: number, factor: number) =>
    [10, 200, 1000].flatMap((n, i) => [
      sweepRun("uncached", n, 4000, seed + i),
      sweepRun("cached", n, 4000 * factor, seed + 10 + i),
    ]);
  const [together] = verdicts(sides(1, 1.3), expect);
  assert.match(
    together,
    /: reproduced here, beyond noise by the 3 points together \(Stouffer over each point's test\), [\d.]+ standard errors apart/,
  );
  // One point the other way round leaves the direction to the points.
  const runs = sides(1, 1.3);
  runs[5] = sweepRun("cached", 1000, 3000, 99);
  assert.doesNotMatch(verdicts(runs, expect)[0], /: reproduced here/);
  // The same target twice, 20 seeds: never reproduced, either way.
  const both: Expectation[] = [...expect, { metric: "rps", better: "uncached", than: "cached" }];
  for (let seed = 1; seed <= 20; seed++) {
    for (const text of verdicts(sides(seed * 100, 1), both)) {
      assert.doesNotMatch(text, /: reproduced here|reproduced at \d/, `seed ${seed}: ${text}`);
    }
  }
});

Deno.test("a direction between loads served by different servers says so on its line", () => {
  const builtin = { targetInfo: { kind: "builtin" as const } };
  const http1 = runOf("builtin", "http1", seq(8, (i) => interval(i, 2000, 1)), {
    ...builtin,
    url: "http://127.0.0.1:41000/echo",
  });
  const grpc = runOf("builtin", "grpc", seq(8, (i) => interval(i, 400, 5)), {
    ...builtin,
    url: "http://127.0.0.1:41001/loadlab.target.Target/Echo",
    config: { ...http1.config, grpc: { call: "loadlab.target.Target/Echo" } },
  });
  const h2 = { ...http1, name: "builtin/h2", load: "h2" };
  const [grpcLine, h2Line] = verdicts([http1, grpc, h2], [
    { metric: "rps", better: "http1", than: "grpc", between: "loads" },
    { metric: "rps", better: "http1", than: "h2", between: "loads" },
  ]);
  assert.match(
    grpcLine,
    /^Expected: load http1's req\/s higher than load grpc's \[not only the load differs: http1 was served on 127\.0\.0\.1:41000, grpc on 127\.0\.0\.1:41001: the built-in target's HTTP is Deno\.serve, its gRPC node:http2\]: /,
  );
  // Two loads on one server differ by the load alone: nothing to add.
  assert.doesNotMatch(h2Line, /not only the load differs/);
});

Deno.test("the target's CPU per request between loads: judged over repeats from its process telemetry", () => {
  // `cpuPct` of one core over 2 s after a 0.5 s warm-up, in 250 ms samples; 2,000 answers a run.
  const cpuRun = (load: string, i: number, cpuPct: number, extra: Partial<RunResult> = {}) =>
    runOf("builtin", load, seq(8, (k) => interval(k, 250, 1)), {
      name: `builtin/${load}#${i}`,
      warmupSec: 0.5,
      telemetry: [{
        name: "target",
        kind: "process",
        samples: seq(10, (k) => ({ tMs: (k + 1) * 250, cpuPercent: k < 2 ? 100 : cpuPct })),
      }],
      ...extra,
    });
  const h2 = [40, 42, 38].map((pct, i) => cpuRun("h2", i, pct));
  const h3 = [100, 95, 110].map((pct, i) => cpuRun("h3", i, pct));
  const expect = { metric: "cpu", better: "h2", than: "h3", between: "loads" } as const;
  const [line] = verdicts([...h2, ...h3], [expect]);
  // 40% of a core over 2,000 answers in 2 s: 400 µs of the target's CPU each.
  assert.match(
    line,
    /^Expected: load h2's target CPU per request lower than load h3's: reproduced here \(builtin: 400 µs vs 1,017 µs \(\+154%\), beyond noise by Welch's t-test over repeats, [\d.]+ standard errors apart, 3 repeats each\)\.$/,
  );
  const [other] = verdicts([...h2, ...h3], [{ ...expect, better: "h3", than: "h2" }]);
  assert.match(other, /: not reproduced here: the other way round/);
  const [unsampled] = verdicts([...h2, ...h3].map((r) => ({ ...r, telemetry: [] })), [expect]);
  assert.match(unsampled, /: not judged: a side has no response to compare/);
});
