import assert from "node:assert/strict";
import { createHistogram, encodeHistogram } from "../histogram.ts";
import { evaluateThresholds, parseThreshold } from "./threshold.ts";
import { AbortWatch, type LiveInterval } from "./abort.ts";
import type { RunResult } from "../schema/results.ts";
import { runVerdict } from "../conclude/run_verdict.ts";
import { abortNote, thresholdLine } from "./text.ts";

/** Interval `index` (250 ms) of `requests` answers of `latencyMs` each, `errors` failed. */
function live(index: number, requests: number, latencyMs: number, errors = 0): LiveInterval {
  const h = createHistogram();
  if (requests > 0) h.recordValueWithCount(latencyMs * 1000, requests);
  return {
    index,
    requests,
    errors,
    failedStatus: 0,
    unjudged: 0,
    lateSends: 0,
    droppedSends: 0,
    histograms: requests > 0 ? [encodeHistogram(h)] : [],
  };
}

/** Feeds intervals in order; the first abort and the index it came at, or null. */
function feed(watch: AbortWatch, intervals: LiveInterval[]) {
  for (const iv of intervals) {
    const aborted = watch.add(iv);
    if (aborted) return { ...aborted, index: iv.index };
  }
  return null;
}

const rule = (expression: string, delayMs = 0) => ({ threshold: parseThreshold(expression), delayMs });

Deno.test("AbortWatch: a whole-run rule fails on the data so far, not before its delay", () => {
  const slow = Array.from({ length: 20 }, (_, i) => live(i, 10, 60));
  const early = feed(new AbortWatch([rule("p99<20ms")], 250), slow);
  assert.equal(early?.index, 0);
  assert.equal(early?.atSec, 0.25);
  assert.ok(Math.abs(early!.actual - 60) < 1, String(early?.actual));
  const delayed = feed(new AbortWatch([rule("p99<20ms", 2000)], 250), slow);
  assert.equal(delayed?.index, 7, "2 s of 250 ms intervals: the 8th ends at 2.0 s");
  assert.equal(delayed?.atSec, 2);
});

Deno.test("AbortWatch: a rule that holds never aborts; a value with no data never fails", () => {
  const fast = Array.from({ length: 40 }, (_, i) => live(i, i % 5 === 0 ? 0 : 10, 5));
  assert.equal(feed(new AbortWatch([rule("p99<20ms"), rule("success>=99%")], 250), fast), null);
});

Deno.test("AbortWatch: the whole run's p99 builds up; a window rule sees a spike the total averages away", () => {
  // Calm, then 2 slow answers among 100 a second: under 1% of the run, so its p99 stays 5 ms.
  const run = Array.from({ length: 16 }, (_, i) => (i === 13 ? live(i, 2, 400) : live(i, 25, 5)));
  assert.equal(feed(new AbortWatch([rule("p99<50ms")], 250), run), null);
  const windowed = feed(new AbortWatch([rule("p99<50ms over 1s")], 250), run);
  assert.equal(windowed?.threshold, "p99<50ms over 1s");
  assert.equal(windowed?.index, 15, "judged once its window (intervals 12..15) is full");
  assert.equal(windowed?.atSec, 4);
});

Deno.test("AbortWatch: rates and counts over the run so far", () => {
  const failing = Array.from({ length: 8 }, (_, i) => live(i, 10, 5, i >= 4 ? 10 : 0));
  const aborted = feed(new AbortWatch([rule("success>=90%")], 250), failing);
  assert.equal(aborted?.index, 4, "10 failed of 60 sends: 83%");
  assert.equal(feed(new AbortWatch([rule("errors<25")], 250), failing)?.index, 6);
  assert.equal(feed(new AbortWatch([rule("rps>30", 1000)], 250), failing), null, "40 answers a second");
  assert.equal(feed(new AbortWatch([rule("rps>50", 1000)], 250), failing)?.index, 3);
});

Deno.test("AbortWatch: a count the run has not reached yet (requests>N) stops nothing; one already past an upper bound does", () => {
  const steady = Array.from({ length: 8 }, (_, i) => live(i, 10, 5, 1));
  assert.equal(feed(new AbortWatch([rule("requests>50")], 250), steady), null, "80 requests by the end");
  assert.equal(feed(new AbortWatch([rule("requests>=100"), rule("errors>=5")], 250), steady), null);
  assert.equal(feed(new AbortWatch([rule("errors<=3")], 250), steady)?.index, 3, "4 errors can only grow");
  assert.equal(feed(new AbortWatch([rule("errors==0")], 250), steady)?.index, 0, "the first error");
  assert.equal(feed(new AbortWatch([rule("requests==80")], 250), steady), null, "80 by the end");
});

/** A run as runAttack returns it after an abort (only what the threshold texts read). */
function abortedRun(p99Ms: number): RunResult {
  return {
    name: "app/slow",
    latencyMs: { p99: p99Ms },
    incomplete: true,
    abortedBy: { threshold: "p99<20ms", atSec: 12, actual: 61.5 },
    errors: {},
    requests: 10,
    droppedSends: 0,
  } as unknown as RunResult;
}

Deno.test("an aborted run: its verdict, its threshold failed even when the whole run passes it, the note", () => {
  const run = abortedRun(15);
  assert.equal(runVerdict(run).label, "aborted at 12.0s by p99<20ms", "the flag replaces 'incomplete'");
  const [t] = evaluateThresholds([parseThreshold("p99<20ms")], [run]);
  assert.deepEqual([t.ok, t.actual], [false, 61.5]);
  assert.equal(
    thresholdLine(t, [run]),
    "FAIL  p99<20ms  (app/slow: 61.50 ms) — run aborted at 12.0s by p99<20ms",
  );
  const [other] = evaluateThresholds([parseThreshold("p99<200ms")], [run]);
  assert.equal(other.ok, true, "another threshold is judged on what was measured");
  assert.equal(
    abortNote({ runs: [run], notRun: ["app/fast", "app/slow#2"] }),
    "run app/slow aborted at 12.0s by p99<20ms (abortOnFail); 2 planned runs not run: app/fast, app/slow#2",
  );
  assert.equal(abortNote({ runs: [{ ...run, abortedBy: undefined }] }), null);
});
