/**
 * k6's rule for custom metric names, as k6 enforces it when a metric is made: a name with a newline, HTML,
 * quotes, braces or 200 characters (which reached the terminal summary and the metrics outputs as it was) is
 * refused, as is a name taken by a metric of another kind or value type, and a name of k6's built-in metrics
 * loadlab does not add a script's values to (a `Gauge` named `vus` replaced the built-in in k6's summary).
 */
import { deepStrictEqual, ok, throws } from "node:assert/strict";
import { Counter, flushMetrics, Gauge, type MetricPart, Rate, Trend } from "./metrics.ts";
import { collectK6Metrics, k6CustomMetrics, percentileStats } from "./metrics_channel.ts";
import { METRICS_CHANNEL, runChannel } from "../isolate_inputs.ts";
import { k6RuleHolds } from "../../../results/export/k6/summary.ts";
import { textSummary } from "../../../results/export/k6/summary_text.ts";

Deno.test("custom metric names outside k6's rule are refused when the metric is made", () => {
  for (
    const name of ["my_count\n</script>", 'tr"end{a="b"}', "a b", "9lives", "x", "é", "L".repeat(200), ""]
  ) {
    throws(() => new Counter(name), /invalid metric name .*ASCII letters, digits or _/, JSON.stringify(name));
  }
  throws(() => new Trend(undefined as unknown as string), /invalid metric name/);
  ok(new Counter("pages_seen") && new Trend("_t2") && new Rate("ok_rate") && new Gauge("last_vu"));
});

Deno.test("a name taken by another kind or value type is refused; the same shares it; k6's own are added to or refused", () => {
  new Rate("shared_rate");
  throws(() => new Gauge("shared_rate"), /metric 'shared_rate' already exists but with type rate/);
  ok(new Rate("shared_rate"));
  new Trend("shared_time", true);
  throws(() => new Trend("shared_time"), /already exists but with a value type time/);
  // A built-in's name, of another kind or value type: refused as k6 refuses it.
  throws(() => new Trend("checks"), /already exists but with type rate/);
  throws(() => new Counter("data_sent"), /already exists but with a value type data/);
  // Of the same kind and value type: added to (cli/k6/summary.ts).
  ok(new Counter("http_reqs") && new Rate("http_req_failed") && new Trend("iteration_duration", true));
  ok(new Gauge("vus") && new Rate("checks") && new Trend("http_req_duration", 1));
  throws(() => new Trend("http_req_waiting"), /already exists but with a value type time/);
});

Deno.test("as k6, a value that is no number is not added (add() answers false), said once; truthy 0 adds 1", async () => {
  const channel = runChannel(METRICS_CHANNEL);
  const got = new Promise<MetricPart[]>((resolve) => channel.onmessage = (e) => resolve(e.data));
  const warnings: string[] = [];
  const warn = console.warn;
  console.warn = (text: string) => warnings.push(text);
  try {
    const t = new Trend("nan_trend");
    const answers = [NaN, "abc", undefined, null, 5, true, "0", " ", [], false].map((v) =>
      t.add(v as number)
    );
    deepStrictEqual(answers, [false, false, false, false, true, true, true, true, true, true]);
    const r = new Rate("nan_rate");
    for (const v of ["0", 0, -1, false, 0.5]) r.add(v as number);
    flushMetrics();
    const parts = await got;
    const [part] = parts.filter((p) => p.name === "nan_trend");
    deepStrictEqual([part.count, part.values], [6, [5, 1, 1, 1, 1, 0]]);
    const [rate] = parts.filter((p) => p.name === "nan_rate");
    deepStrictEqual([rate.count, rate.trues], [5, 3]);
    deepStrictEqual(warnings, [
      "'NaN' is an invalid value for metric 'nan_trend', a number or a boolean value is expected: not added",
    ]);
  } finally {
    console.warn = warn;
    channel.close();
  }
});

Deno.test("a time trend (new Trend(name, true), k6/ws's ws_connecting) shows durations, another at most 6 decimals", async () => {
  // Both read 'avg=3.924795500000016 min=0.7688640000000078': a time without its unit, 15 digits.
  collectK6Metrics();
  new Trend("connect_time", true).add(3.9247955000000016);
  new Trend("plain_trend").add(0.7688640000000078);
  flushMetrics();
  const metrics = await k6CustomMetrics(1);
  deepStrictEqual([metrics.connect_time.contains, metrics.plain_trend.contains], ["time", "default"]);
  const text = textSummary({
    root_group: { name: "", path: "", id: "", groups: [], checks: [] },
    options: { summaryTrendStats: ["avg", "min"], summaryTimeUnit: "", noColor: true },
    state: { isStdOutTTY: false, isStdErrTTY: false, testRunDurationMs: 1000 },
    metrics,
  }, { enableColors: false });
  ok(/connect_time\.*: avg=3\.92ms +min=3\.92ms/.test(text), text);
  ok(/plain_trend\.*: avg=0\.768864 min=0\.768864 *$/m.test(text), text);
});

Deno.test("a trend's median and percentiles lie between its values as k6's do, not on the next value up", async () => {
  collectK6Metrics();
  const two = new Trend("two_values"), ten = new Trend("ten_values");
  two.add(1), two.add(3);
  for (let v = 1; v <= 10; v++) ten.add(v);
  flushMetrics();
  const metrics = await k6CustomMetrics(1);
  deepStrictEqual([metrics.two_values.values.med, metrics.two_values.values["p(90)"]], [2, 2.8]);
  const t = metrics.ten_values.values;
  const rounded = [t.min, t.med, t["p(90)"], t["p(95)"], t.max].map((v) => Math.round(v * 1e9) / 1e9);
  deepStrictEqual(rounded, [1, 5.5, 9.1, 9.55, 10]);
});

Deno.test("a trend computes every percentile a rule or the summary names, as k6 judges p(50) and p(99.9)", async () => {
  collectK6Metrics();
  const t = new Trend("named_pcts");
  for (let v = 1; v <= 1000; v++) t.add(v);
  flushMetrics();
  const stats = percentileStats(["p(99.9)<1000", " p(50) < 600", "avg<1", "p(101)<1", "count>1"]);
  deepStrictEqual(stats, ["p(99.9)", "p(50)"]);
  const values = (await k6CustomMetrics(1, stats)).named_pcts.values;
  deepStrictEqual([values["p(50)"], Math.round(values["p(99.9)"] * 1e6) / 1e6], [500.5, 999.001]);
  ok(k6RuleHolds(values, "p(99.9)<1000") && k6RuleHolds(values, "p(50)<600"), JSON.stringify(values));
});

Deno.test("parts on the channel that are not the runtime's shape are dropped: loadlab's main isolate is not crashed by them", async () => {
  // A script posting on the channel by its name crashed `loadlab run` after the load ("part.values is not
  // iterable", a stack trace, exit 1).
  collectK6Metrics();
  new Counter("real_count").add(2);
  flushMetrics();
  const forged = runChannel(METRICS_CHANNEL);
  forged.postMessage([
    { name: "forged", kind: "trend", values: null, sum: 0, trues: 0, count: 1 },
    "junk",
    null,
  ]);
  forged.postMessage({ not: "a list" });
  forged.postMessage([{ name: "real_count", kind: "counter", values: [], sum: "1e9", trues: 0, count: 1 }]);
  forged.close();
  const metrics = await k6CustomMetrics(1);
  deepStrictEqual(Object.keys(metrics).filter((n) => n === "forged" || n === "real_count"), ["real_count"]);
  deepStrictEqual(metrics.real_count.values.count, 2);
});

Deno.test("a Gauge's summary keeps its last value and the least and greatest ever added, over every part", async () => {
  collectK6Metrics();
  const g = new Gauge("gauge_span");
  g.add(5), g.add(1), g.add(9), g.add(4);
  flushMetrics();
  g.add(12), g.add(7);
  flushMetrics();
  // The channel delivers in its own time: a busy machine took longer than k6CustomMetrics' own wait.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const m = (await k6CustomMetrics(1)).gauge_span;
  deepStrictEqual(m.values, { value: 7, min: 1, max: 12 });
});
