import assert from "node:assert/strict";
import { createHistogram, encodeHistogram } from "../histogram.ts";
import { evaluateThresholds, parseThreshold, windowsOf } from "./threshold.ts";
import type { IntervalResult, RunResult } from "../schema/results.ts";

/** One 1 s interval of `requests` answers of `latencyMs` each, with its HDR histogram unless `bare`. */
function interval(i: number, requests: number, latencyMs: number, bare = false): IntervalResult {
  const h = createHistogram();
  h.recordValueWithCount(latencyMs * 1000, requests);
  return {
    startMs: i * 1000,
    durationMs: 1000,
    requests,
    errors: 0,
    failedStatus: 0,
    p50: latencyMs,
    p75: latencyMs,
    p90: latencyMs,
    p99: latencyMs,
    ...(bare ? {} : { histogramEncoded: encodeHistogram(h) }),
  } as IntervalResult;
}

/**
 * Nine calm seconds of 1000 answers at 10 ms and one of 20 answers at 300 ms: the whole run's p99 is 10 ms.
 */
function spikyRun(bare = false): RunResult {
  const intervals = Array.from(
    { length: 10 },
    (_, i) => i === 6 ? interval(i, 20, 300, bare) : interval(i, 1000, 10, bare),
  );
  return {
    name: "spiky",
    requests: 9020,
    rps: 902,
    latencyMs: { p99: 10 },
    successRate: 1,
    intervals,
  } as unknown as RunResult;
}

Deno.test("windowsOf: consecutive windows; a short last part joins the one before", () => {
  const ivs = spikyRun().intervals;
  assert.deepEqual(windowsOf(ivs, 3000).map((w) => w.length), [3, 3, 4]);
  assert.deepEqual(windowsOf(ivs, 4000).map((w) => w.length), [4, 4, 2]);
  assert.deepEqual(windowsOf(ivs, 60_000).map((w) => w.length), [10], "a run shorter than a window is one");
});

Deno.test("p99<100ms over 1s fails on the one slow second the whole run's p99 hides", () => {
  const run = spikyRun();
  const [whole, windowed, wide] = evaluateThresholds(
    ["p99<100ms", "p99<100ms over 1s", "p99<100ms over 10s"].map(parseThreshold),
    [run],
  );
  assert.equal(whole.ok, true);
  assert.equal(windowed.ok, false);
  assert.ok(Math.abs(windowed.actual - 300) / 300 < 0.01, `worst window ${windowed.actual} (HDR precision)`);
  assert.equal(wide.ok, true, "one 10 s window: 20 of 9020 answers are slow, under 1%");
  assert.ok(Math.abs(wide.actual - 10) / 10 < 0.01, String(wide.actual));
});

Deno.test("without interval histograms a window takes its highest interval value; rps per window", () => {
  const [p99, rps, success] = evaluateThresholds(
    ["p99<100ms over 2s", "rps>=500 over 1s", "success>=99% over 1s"].map(parseThreshold),
    [spikyRun(true)],
  );
  assert.deepEqual([p99.ok, p99.actual], [false, 300]);
  assert.deepEqual([rps.ok, rps.actual], [false, 20]);
  assert.deepEqual([success.ok, success.actual], [true, 1]);
});

Deno.test("over: parsed into windowMs; counts, bad lengths and unknown metrics are refused with the fix", () => {
  assert.equal(parseThreshold("p99<100ms over 10s").windowMs, 10_000);
  assert.equal(parseThreshold("rps>=100 over 500ms").windowMs, 500);
  assert.equal(parseThreshold("errorRate<1% over 1m").windowMs, 60_000);
  assert.equal(parseThreshold("p99<100ms").windowMs, undefined);
  assert.throws(
    () => parseThreshold("errors<1 over 10s"),
    /"over" applies to latency, rps and success rates/,
  );
  assert.throws(() => parseThreshold("p99<1ms over 10x"), /"over 10x": give a window length such as 10s/);
  assert.throws(() => parseThreshold("sucess>99%"), /unknown metric "sucess"; did you mean "success"\?/);
  assert.throws(() => parseThreshold("p9<1ms"), /unknown metric "p9"; did you mean "p90"\?/);
  assert.throws(() => parseThreshold("latency<1ms"), (err: Error) => !err.message.includes("did you mean"));
});
