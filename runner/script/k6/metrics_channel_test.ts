/**
 * A k6 trend's kept values: every one up to the cap, then a uniform sample of the cap's size whose
 * percentiles stay near the whole's, the count, min and max exact over every value offered.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { flushMetrics, Trend } from "./metrics.ts";
import { inputs, METRICS_CHANNEL, runChannel } from "../isolate_inputs.ts";
import { collectK6Metrics, k6CustomMetrics, MAX_TREND_VALUES, TrendSample } from "./metrics_channel.ts";

Deno.test("under its cap a trend keeps every value; past it a uniform sample of the cap, min and max exact", () => {
  const few = new TrendSample(1_000);
  few.add([3, 1, 2]);
  assertEquals([few.values, few.sampled, few.min, few.max], [[3, 1, 2], false, 1, 3]);
  const many = new TrendSample(1_000);
  // 0..99,999 in 100 parts, as workers send them.
  for (let p = 0; p < 100; p++) many.add(Array.from({ length: 1_000 }, (_, k) => p * 1_000 + k));
  assertEquals([many.values.length, many.seen, many.sampled, many.min, many.max], [
    1_000,
    100_000,
    true,
    0,
    99_999,
  ]);
  const sorted = many.values.toSorted((a, b) => a - b);
  // A uniform sample of 1,000: its median within 10% of the range of the whole's (49,999.5).
  ok(Math.abs(sorted[500] - 50_000) < 10_000, `median ${sorted[500]}`);
});

Deno.test("a trend sent past the cap reads exact count, avg, min and max, its percentiles near the whole's", async () => {
  collectK6Metrics();
  const t = new Trend("past_the_cap");
  const n = MAX_TREND_VALUES + 200_000;
  for (let v = 0; v < n; v++) t.add(v);
  // A 1.2 M-value part takes longer to arrive than a turn of the event loop: the collector waits for it.
  flushMetrics();
  const values = (await k6CustomMetrics(1)).past_the_cap.values;
  assertEquals([values.count, values.min, values.max, values.avg], [n, 0, n - 1, (n - 1) / 2]);
  ok(Math.abs(values["p(90)"] - 0.9 * n) < 0.01 * n, `p(90) ${values["p(90)"]} of ${n}`);
});

Deno.test("the collector waits for every send an isolate counted, however late its part arrives", async () => {
  collectK6Metrics();
  // A VU's isolate counts a send before making it; on a busy machine its part can arrive long after.
  Atomics.add(inputs.metricSends, 0, 1);
  const late = runChannel(METRICS_CHANNEL);
  const part = { name: "late", kind: "counter", time: false, values: [], sum: 3, trues: 0, count: 1 };
  const timer = setTimeout(() => late.postMessage([part]), 300);
  const metrics = await k6CustomMetrics(1);
  clearTimeout(timer);
  late.close();
  assertEquals(metrics.late?.values.count, 3);
});
