import assert from "node:assert/strict";
import { makeRun } from "../../tests/fixtures/make_run.ts";
import type { RunResult } from "../mod.ts";
import { judgeNoise } from "./noise.ts";
import { withinRunBlocker } from "./noise_samples.ts";

/** Three repeats of a variant whose p99 is `p99s[i]` in repeat i (the rest of each run from the fixture). */
function repeats(variant: string, p99s: number[]): RunResult[] {
  return p99s.map((p99, repeat) => {
    const run = makeRun({
      name: `${variant}#${repeat}`,
      variant,
      load: "l",
      repeat,
      rps: 100,
      dist: { medianMs: 2, sigma: 0.3 },
    });
    return { ...run, latencyMs: { ...run.latencyMs, p99 } };
  });
}

Deno.test("repeats: a p99 many times the baseline's with one slow repeat is never 'within noise'", () => {
  // 11 ms against 60, 50 and 2,500 ms: on a linear scale the slow repeat's spread swallows the gap.
  const verdict = judgeNoise(
    "repeats",
    repeats("express", [60, 50, 2500]),
    repeats("builtin", [9, 11, 13]),
    "p99",
  );
  assert.ok(!("beyond" in verdict && verdict.beyond === false), JSON.stringify(verdict));
  // Two repeats a side cannot resolve a gap of several standard errors: not judged, with why.
  const two = judgeNoise("repeats", repeats("b", [30, 90]), repeats("a", [10, 12]), "p99");
  assert.ok(
    "notJudged" in two &&
      /^by Welch's t-test over repeats, [\d.]+ standard errors apart, 2 repeats each: beyond noise needs 5$/
        .test(two.notJudged),
    JSON.stringify(two),
  );
  // A gap well inside the spread is within noise.
  const same = judgeNoise("repeats", repeats("b", [10, 12, 11]), repeats("a", [11, 10, 12]), "p99");
  assert.ok("beyond" in same && !same.beyond, JSON.stringify(same));
});

Deno.test("within-run: a load whose rate changes within the run has no within-run noise", () => {
  const run = makeRun({
    name: "direct/spike",
    variant: "direct",
    load: "spike",
    rps: 20,
    dist: { medianMs: 90, sigma: 0.5 },
  });
  const phased = {
    ...run,
    config: {
      ...run.config,
      phases: [{ durationMs: 1000, ratePerSec: 1 }, { durationMs: 1000, ratePerSec: 50 }],
    },
  };
  assert.match(withinRunBlocker([phased])!, /the load spike changes its rate within the run/);
  const steady = { ...run, config: { ...run.config, phases: [{ durationMs: 1000, ratePerSec: 5 }] } };
  assert.equal(withinRunBlocker([{ ...steady, stabilizedAtMs: 0 }]), null);
});

Deno.test("within-run: req/s hundreds of times the baseline's is beyond noise however a busy core shakes it", () => {
  // A 1 s delay on 10 connections answers in a wave every fourth 250 ms interval; the cache in front swings
  // from 160 to 7,800 req/s a batch while it shares its cores. On a linear scale the swing hides the gap.
  const run = (name: string, counts: number[]): RunResult => {
    const r = makeRun({
      name,
      variant: name,
      load: "l",
      durationSec: 4,
      rps: 100,
      dist: { medianMs: 1, sigma: 0.3 },
    });
    return {
      ...r,
      stabilizedAtMs: null,
      intervals: r.intervals.map((iv, i) => ({ ...iv, requests: counts[i] })),
    };
  };
  const direct = run("direct", [0, 0, 0, 0, 10, 0, 0, 0, 10, 0, 0, 0, 10, 0, 0, 10]);
  const cached = run("cached", [0, 0, 0, 0, 433, 442, 352, 489, 40, 1082, 1942, 1795, 1672, 903, 162, 729]);
  const verdict = judgeNoise("within-run", [cached], [direct], "rps");
  assert.ok("beyond" in verdict && verdict.beyond, JSON.stringify(verdict));
});
