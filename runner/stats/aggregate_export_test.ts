import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { RunAggregator } from "./aggregate.ts";
import { IntervalRecorder } from "./recorder.ts";
import type { IntervalSample } from "./sample.ts";
import type { IntervalDelta } from "../../results/export/interval_delta.ts";
import { mergeEncoded } from "../../results/histogram.ts";

const INTERVAL_MS = 100;
const ORIGIN_MS = 5000;

/** One worker's samples of `intervals` busy intervals. */
function worker(w: number, intervals: number): IntervalSample[] {
  const r = new IntervalRecorder({ intervalMs: INTERVAL_MS, originMs: ORIGIN_MS, uncorrected: false });
  const out: IntervalSample[] = [];
  for (let i = 0; i < intervals * 4; i++) {
    const nowMs = ORIGIN_MS + i * 25 + w;
    r.recordResponse(nowMs, i % 7 === 0 ? 500 : 200, 1000 + (i % 30) * 150, 800);
    if (i % 8 === 7) out.push(...r.drain(nowMs, false));
  }
  out.push(...r.drain(ORIGIN_MS + intervals * INTERVAL_MS, true));
  return out;
}

Deno.test("onInterval: each interval once, when every worker reported it; a later sample comes flagged late", () => {
  const deltas: IntervalDelta[] = [];
  const agg = new RunAggregator({
    intervalMs: INTERVAL_MS,
    uncorrected: false,
    workers: 2,
    onInterval: (d) => deltas.push(d),
  });
  const [a, b] = [worker(0, 20), worker(1, 20)];
  for (const s of a) agg.add(s, 0);
  assertEquals(deltas.length, 0, "nothing is complete while worker 1 has reported nothing");
  for (const s of b.filter((s) => s.index < 10)) agg.add(s, 1);
  assertEquals(deltas.map((d) => d.index), [...Array(10).keys()], "handed on in order, once each");
  assert(deltas.every((d) => !d.late && d.histograms.length === 2));
  for (const s of b.filter((s) => s.index >= 10)) agg.add(s, 1);
  // A sample for an interval already handed on (a worker's straggler) is handed on as late counts.
  const straggler = { ...a[0] };
  agg.add(straggler, 0);
  const result = agg.finish(2);
  const late = deltas.filter((d) => d.late);
  assertEquals(late.length, 1);
  const onTime = deltas.filter((d) => !d.late);
  assertEquals(new Set(onTime.map((d) => d.index)).size, onTime.length);
  // What the exporter adds up is the run's totals exactly: counts and the latency histogram.
  assertEquals(deltas.reduce((sum, d) => sum + d.requests, 0), result.requests);
  assertEquals(
    deltas.reduce((sum, d) => sum + d.failedStatus, 0),
    [...a, ...b, straggler].reduce((s, x) => s + x.failedStatus, 0),
  );
  const latency = mergeEncoded(deltas.flatMap((d) => d.histograms));
  assertEquals(latency.totalCount, result.requests);
  assertEquals(latency.getValueAtPercentile(99) / 1000, result.latencyMs.p99);
});
