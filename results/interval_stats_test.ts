import assert from "node:assert/strict";
import type { IntervalResult, RunResult } from "./mod.ts";
import { createHistogram, decodeHistogram, encodeHistogram, summarizeMs } from "./histogram.ts";
import { makeRun } from "../tests/fixtures/make_run.ts";
import { apportionErrors, cutWarmup, phaseStats } from "./interval_stats.ts";

/** A 250 ms interval holding exactly these latencies, with its encoded histogram. */
function interval(
  startMs: number,
  latenciesMs: number[],
  extra: Partial<IntervalResult> = {},
): IntervalResult {
  const h = createHistogram();
  for (const ms of latenciesMs) h.recordValue(ms * 1000);
  const s = summarizeMs(h);
  const requests = latenciesMs.length, failedStatus = extra.failedStatus ?? 0;
  return {
    startMs,
    durationMs: 250,
    requests,
    errors: 0,
    failedStatus,
    p50: s.p50,
    p75: s.p75,
    p90: s.p90,
    p99: s.p99,
    mean: s.mean,
    max: s.max,
    bytesRead: requests * 100,
    bytesWritten: requests * 10,
    lateSends: 0,
    inFlight: 0,
    connections: 4,
    statusCodes: failedStatus ? { "200": requests - failedStatus, "503": failedStatus } : { "200": requests },
    histogramEncoded: encodeHistogram(h),
    ...extra,
  };
}

const ramp = (n: number, fromMs: number, stepMs: number) =>
  Array.from({ length: n }, (_, i) => fromMs + i * stepMs);

/** Four slow warm-up intervals (50-59 ms), then four fast ones (10-19 ms) with errors and 503s. */
function warmRun(): RunResult {
  const intervals = [
    ...[0, 250, 500, 750].map((t) => interval(t, ramp(100, 50, 0.09))),
    ...[1000, 1250, 1500, 1750].map((t, i) =>
      interval(t, ramp(100, 10, 0.09), { errors: i % 2 ? 2 : 0, failedStatus: 5 })
    ),
  ];
  const run = makeRun({ name: "warm", rps: 400, dist: { medianMs: 30, sigma: 0.5 }, durationSec: 2 });
  return { ...run, intervals, errors: { timeout: 6, connect: 2 }, warmupSec: 0.5 };
}

/** The summary of one histogram of all these latencies, as read back from its encoding (min and max
 * then sit on their HDR bucket's edges, as in any decoded histogram). */
function summaryOf(latenciesMs: number[]) {
  const h = createHistogram();
  for (const ms of latenciesMs) h.recordValue(ms * 1000);
  return summarizeMs(decodeHistogram(encodeHistogram(h)));
}

Deno.test("cutWarmup recomputes the totals from the intervals at or after the cut, exactly", () => {
  const cut = cutWarmup(warmRun(), 1000);
  assert.equal(cut.warmupAuto, true);
  assert.equal(cut.warmupSec, 1.5);
  assert.equal(cut.durationSec, 1);
  assert.equal(cut.requests, 400);
  assert.equal(cut.rps, 400);
  assert.deepEqual(cut.statusCodes, { "200": 380, "503": 20 });
  assert.equal(cut.successRate, 380 / 404);
  assert.equal(cut.bytesRead, 40_000);
  // The same figures as one histogram of every latency after the cut: the merge is exact.
  assert.deepEqual(cut.latencyMs, summaryOf([1, 2, 3, 4].flatMap(() => ramp(100, 10, 0.09))));
  assert.ok(cut.latencyMs.max < 20);
  assert.equal(cut.histogram.reduce((a, b) => a + b.count, 0), 400);
  // 4 errors after the cut, apportioned by the run's mix of 6 timeouts and 2 connects.
  assert.deepEqual(cut.errors, { timeout: 3, connect: 1 });
  // Intervals stay whole so the report still draws the warm-up.
  assert.equal(cut.intervals.length, 8);
});

Deno.test("cutWarmup counts error kinds exactly when intervals carry them", () => {
  const run = warmRun();
  run.intervals = run.intervals.map((iv) => {
    const errorKinds: Record<string, number> = iv.errors ? { connect: iv.errors } : {};
    return { ...iv, errorKinds };
  });
  assert.deepEqual(cutWarmup(run, 1000).errors, { connect: 4 });
});

Deno.test("cutWarmup keeps streams' first messages whole, and says they include the warm-up", () => {
  const run = warmRun();
  const h = createHistogram();
  h.recordValue(1500);
  run.firstMessage = { streams: 1, latencyMs: summarizeMs(h), histogramEncoded: encodeHistogram(h) };
  const cut = cutWarmup(run, 1000);
  assert.deepEqual(cut.firstMessage, { ...run.firstMessage, warmupIncluded: true });
  assert.equal(cutWarmup(warmRun(), 1000).firstMessage, undefined);
});

Deno.test("cutWarmup leaves a run without interval histograms as it is, and rejects a cut past the end", () => {
  const run = warmRun();
  run.intervals = run.intervals.map(({ histogramEncoded: _, ...iv }) => iv);
  assert.equal(cutWarmup(run, 1000), run);
  assert.throws(() => cutWarmup(warmRun(), 5000), RangeError);
});

Deno.test("phaseStats: exact per-phase figures, intervals assigned by where they start", () => {
  const [warm, fast] = phaseStats(warmRun(), [{ name: "warm", durationMs: 1000 }, {
    name: "fast",
    durationMs: 1000,
  }]);
  assert.equal(warm.requests, 400);
  assert.equal(warm.rps, 400);
  assert.equal(warm.successRate, 1);
  assert.equal(warm.timeouts, 0);
  assert.deepEqual(warm.latencyMs, summaryOf([1, 2, 3, 4].flatMap(() => ramp(100, 50, 0.09))));
  assert.equal(fast.startMs, 1000);
  assert.equal(fast.failedStatus, 20);
  assert.deepEqual(fast.statusCodes, { "200": 380, "503": 20 });
  assert.equal(fast.timeouts, 3);
  assert.ok(fast.latencyMs.p95 < 20);
  // A boundary inside an interval (1100 ms) moves to interval resolution: [1000, 1250) is the first phase's.
  const [a, b] = phaseStats(warmRun(), [{ name: "a", durationMs: 1100 }, { name: "b", durationMs: 900 }]);
  assert.equal(a.requests, 500);
  assert.equal(b.requests, 300);
  assert.equal(b.durationMs, 900);
});

Deno.test("phaseStats gives NaN latency without histograms, and puts late intervals in the last phase", () => {
  const run = warmRun();
  run.intervals = run.intervals.map(({ histogramEncoded: _, ...iv }) => iv);
  const [only] = phaseStats(run, [{ name: "short", durationMs: 500 }]);
  assert.equal(only.requests, 800);
  assert.ok(Number.isNaN(only.latencyMs.p99));
  assert.deepEqual(phaseStats(run, []), []);
});

Deno.test("apportionErrors splits by the mix and keeps the total", () => {
  assert.deepEqual(apportionErrors(3, { timeout: 10 }), { timeout: 3 });
  const split = apportionErrors(5, { timeout: 1, connect: 1, reset: 0 });
  assert.equal(Object.values(split).reduce((a, b) => a + b, 0), 5);
  assert.deepEqual(Object.keys(split).sort(), ["connect", "timeout"]);
  assert.deepEqual(apportionErrors(0, { timeout: 1 }), {});
  assert.deepEqual(apportionErrors(4, {}), {});
});

/** The warm run with a timeout in each warm-up interval and connect errors only in the last two. */
function killedRun(): RunResult {
  const run = warmRun();
  run.intervals = run.intervals.map((iv, i) => {
    const errorKinds: Record<string, number> = i < 4
      ? { timeout: 1 }
      : i >= 6
      ? { connect: 3, reset: 1 }
      : {};
    const errors = Object.values(errorKinds).reduce((a, b) => a + b, 0);
    return { ...iv, errors, errorKinds, serverBoundSends: i < 4 ? 50 : 0 };
  });
  return { ...run, errors: { timeout: 4, connect: 6, reset: 2 }, serverBoundSends: 200 };
}

Deno.test("phaseStats counts each phase's errors by kind exactly from its intervals, never apportioned", () => {
  const phases = [{ name: "warm", durationMs: 1000 }, { name: "steady", durationMs: 500 }, {
    name: "killed",
    durationMs: 500,
  }];
  const [warm, steady, killed] = phaseStats(killedRun(), phases);
  assert.deepEqual([warm.timeouts, warm.errors], [4, { timeout: 4 }]);
  assert.deepEqual([steady.timeouts, steady.errors], [0, {}]);
  assert.deepEqual([killed.timeouts, killed.errors], [0, { connect: 6, reset: 2 }]);
  // The same intervals without their kinds (an older file): the run's mix is spread over the phases.
  const old = killedRun();
  old.intervals = old.intervals.map(({ errorKinds: _, ...iv }) => iv);
  assert.deepEqual(phaseStats(old, phases)[0].errors, { timeout: 1, connect: 2, reset: 1 });
});

Deno.test("cutWarmup judges the verdict on the server-bound sends of the kept intervals", () => {
  const cut = cutWarmup(killedRun(), 1000);
  assert.deepEqual(cut.errors, { connect: 6, reset: 2 });
  assert.deepEqual([cut.serverBoundSends, cut.serverBound], [0, false]);
  // Warm-up waits counted in: the whole run's 200 of 812 sends name the server.
  const whole = cutWarmup(killedRun(), 0);
  assert.deepEqual([whole.serverBoundSends, whole.serverBound], [200, true]);
});
