import assert from "node:assert/strict";
import { makeCpuSleepQuick } from "../../../tests/fixtures/make_results.ts";
import { type CpuProfile, summarizeProfile } from "../../../results/cpu_profile.ts";
import type { ResultsFile, RunResult } from "../../../results/mod.ts";
import { analyze } from "../../../results/conclude/analysis.ts";
import { buildPageProfiles } from "./profiles.ts";

/** 1.5 s of samples 1 ms apart in one function: a first second and a rest. */
function summary() {
  const profile: CpuProfile = {
    nodes: [
      { id: 1, callFrame: { functionName: "(root)", url: "", lineNumber: -1 }, children: [2] },
      { id: 2, callFrame: { functionName: "fib", url: "file:///a/b.js", lineNumber: 3 } },
    ],
    startTime: 0,
    endTime: 1_501_000,
    samples: Array(1500).fill(2),
    timeDeltas: Array(1500).fill(1000),
  };
  return summarizeProfile(profile);
}

/** Results of `runs` with their stored analysis, as the report reads them. */
function results(runs: RunResult[]): ResultsFile {
  return { ...makeCpuSleepQuick(), runs, analysis: analyze(runs) };
}

/** A rate sweep of one variant: sustained up to 4,000/s, 8,000/s is past the knee. */
function sweep(): RunResult[] {
  const base = makeCpuSleepQuick().runs[0];
  return [[1000, 1000], [2000, 2000], [4000, 3950], [8000, 4000]].map(([rate, rps]) => ({
    ...base,
    name: `single/static/load.rate=${rate}`,
    load: "static",
    sweep: { parameter: "load.rate", value: rate },
    targetRps: rate,
    rps,
    // Intervals that served `rps` (the fixture's answered 91 requests): the knee's bend is judged on them.
    intervals: base.intervals.map((iv) => ({ ...iv, requests: (rps * iv.durationMs) / 1000, drained: 0 })),
    // The target's own limit past the knee, not loadlab's (the fixture's run is generator-bound).
    generatorBound: false,
    serverBound: rate === 8000,
    profiles: [{ process: "target", file: `profiles/${rate}.target.cpuprofile`, summary: summary() }],
  }));
}

Deno.test("the profile pairs: at the knee against above it, and each run's first second against the rest", () => {
  const page = buildPageProfiles(results(sweep()))!;
  assert.equal(page.refs.length, 4 * 3, "each profile whole and its two windows");
  const [knee, ...warmups] = page.pairs;
  assert.match(knee.label, /at the knee \(load\.rate=4000\) vs above it \(8000\)/);
  assert.deepEqual([page.refs[knee.a].run, page.refs[knee.b].run], [
    "single/static/load.rate=4000",
    "single/static/load.rate=8000",
  ]);
  assert.equal(warmups.length, 4);
  assert.deepEqual([page.refs[warmups[0].a].window, page.refs[warmups[0].b].window], [0, 1]);
  assert.ok(page.cost.length > 0);
});

Deno.test("no profiled run: no profile section data", () => {
  assert.equal(buildPageProfiles(makeCpuSleepQuick()), null);
  const failed = { ...makeCpuSleepQuick().runs[0], profiles: [{ process: "target", error: "gone" }] };
  assert.equal(buildPageProfiles(results([failed])), null);
});

Deno.test("no profile pair is offered as the knee where loadlab's generator made the bend", () => {
  const runs = sweep().map((r) =>
    r.sweep!.value === 8000 ? { ...r, generatorBound: true, serverBound: false } : r
  );
  const page = buildPageProfiles(results(runs))!;
  assert.ok(!page.pairs.some((p) => /at the knee/.test(p.label)), page.pairs.map((p) => p.label).join("\n"));
});
