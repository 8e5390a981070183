import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { RunAggregator } from "./aggregate.ts";
import { IntervalRecorder } from "./recorder.ts";
import type { IntervalSample } from "./sample.ts";

const INTERVAL_MS = 100;
const ORIGIN_MS = 5000;

/** Two workers' samples of `intervals` busy intervals (a few responses each), drained every 300 ms. */
function twoWorkers(intervals: number): IntervalSample[][] {
  return [0, 1].map((w) => {
    const r = new IntervalRecorder({ intervalMs: INTERVAL_MS, originMs: ORIGIN_MS, uncorrected: false });
    const out: IntervalSample[] = [];
    for (let i = 0; i < intervals * 4; i++) {
      const nowMs = ORIGIN_MS + i * 25 + w;
      r.recordResponse(nowMs, i % 9 === 0 ? 404 : 200, 1000 + (i % 50) * 100, 1000);
      if (i % 12 === 11) out.push(...r.drain(nowMs, false));
    }
    out.push(...r.drain(ORIGIN_MS + intervals * INTERVAL_MS, true));
    return out;
  });
}

Deno.test("a complete interval holds its workers' encodings until the end, then one merged", () => {
  const [a, b] = twoWorkers(40);
  const agg = new RunAggregator({ intervalMs: INTERVAL_MS, uncorrected: false, workers: 2 });
  for (const s of a) agg.add(s, 0);
  // Worker 1 is behind: only its intervals 0..29 are in.
  for (const s of b.filter((s) => s.index < 30)) agg.add(s, 1);
  assertEquals(agg.held(), { open: 10, complete: 30, workerEncodings: 70, mergedEncodings: 0 });
  for (const s of b.filter((s) => s.index >= 30)) agg.add(s, 1);
  assertEquals(agg.held(), { open: 0, complete: 40, workerEncodings: 80, mergedEncodings: 0 });
  agg.finish(4);
  assertEquals(agg.held(), { open: 0, complete: 40, workerEncodings: 0, mergedEncodings: 40 });
});

Deno.test("without interval histograms only the fold window's encodings stay, and results match", () => {
  const [a, b] = twoWorkers(300);
  const foldWindowMs = 2_000; // 20 intervals, plus one
  const none = new RunAggregator({
    intervalMs: INTERVAL_MS,
    uncorrected: false,
    workers: 2,
    intervalHistograms: false,
    foldWindowMs,
  });
  const kept = new RunAggregator({ intervalMs: INTERVAL_MS, uncorrected: false, workers: 2 });
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    for (const [w, samples] of [[0, a], [1, b]] as const) {
      if (i < samples.length) (none.add(samples[i], w), kept.add(samples[i], w));
    }
  }
  const held = none.held();
  assertEquals([held.open, held.complete, held.mergedEncodings], [0, 300, 0]);
  assert(held.workerEncodings <= 2 * 22, `${held.workerEncodings} encodings kept`);
  // Responses past a 28.55 s measured duration fold into its last interval exactly in both.
  const withHistograms = kept.finish(28.55);
  const without = none.finish(28.55);
  assertEquals(without.intervals.length, 286);
  assertEquals(
    without.intervals.map(({ histogramEncoded: _, ...rest }) => rest),
    withHistograms.intervals.map(
      ({ histogramEncoded: _, ...rest }) => rest,
    ),
  );
  assert(without.intervals.every((iv) => iv.histogramEncoded === undefined));
  assertEquals(without.intervals[285].requests, 15 * 8);
});

Deno.test("a worker's samples out of its order still add exactly into a complete interval", () => {
  const [a] = twoWorkers(10);
  const inOrder = new RunAggregator({ intervalMs: INTERVAL_MS, uncorrected: false });
  for (const s of a) inOrder.add(s);
  const reversed = new RunAggregator({ intervalMs: INTERVAL_MS, uncorrected: false });
  for (const s of [...a].reverse()) reversed.add(s);
  assertEquals(reversed.finish(1), inOrder.finish(1));
});
