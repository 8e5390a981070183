/**
 * k6's text summary as jslib's k6-summary writes it, and k6's legacy `--summary-export` shape from summary
 * data: a rate's `value`, a trend's asked stats alone, thresholds true when failed, and checks by name, one
 * per name as k6 counts them (passes and fails summed).
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { type K6Metric, type K6SummaryData, k6SummaryExport, textSummary } from "./summary_text.ts";

const data: K6SummaryData = {
  root_group: {
    name: "",
    path: "",
    id: "d41d8cd98f00b204e9800998ecf8427e",
    groups: [],
    checks: [
      { name: "is 200", path: "::is 200", id: "a", passes: 10, fails: 0 },
      { name: "is 200", path: "::is 200", id: "a", passes: 1, fails: 9 },
    ],
  },
  options: { summaryTrendStats: ["avg", "p(95)"], summaryTimeUnit: "", noColor: false },
  state: { isStdOutTTY: false, isStdErrTTY: false, testRunDurationMs: 1000 },
  metrics: {
    checks: {
      type: "rate",
      contains: "default",
      values: { rate: 0.55, passes: 11, fails: 9 },
      thresholds: { "rate>0.9": { ok: false } },
    },
    http_req_duration: {
      type: "trend",
      contains: "time",
      values: { avg: 2, "p(95)": 3, "p(99)": 4, med: 2 },
      thresholds: { "p(99)<10": { ok: true } },
    },
  },
};

Deno.test("k6's summary export: values by metric, failed thresholds true, checks one per name", () => {
  const exported = JSON.parse(k6SummaryExport(data));
  assertEquals(Object.keys(exported), ["root_group", "metrics"]);
  assertEquals(exported.metrics.checks, {
    passes: 11,
    fails: 9,
    value: 0.55,
    thresholds: { "rate>0.9": true },
  });
  assertEquals(exported.metrics.http_req_duration, { avg: 2, "p(95)": 3, thresholds: { "p(99)<10": false } });
  assertEquals(exported.root_group.groups, {});
  assertEquals(exported.root_group.checks, {
    "is 200": { name: "is 200", path: "::is 200", id: "a", passes: 11, fails: 9 },
  });
});

Deno.test("textSummary writes jslib's k6-summary lines: groups, aligned columns, indent, colors on unless off", () => {
  const check = (name: string, passes: number, fails: number) => ({ name, path: "", id: "", passes, fails });
  const time = (avg: number, p95: number, ok?: boolean): K6Metric => ({
    type: "trend",
    contains: "time",
    values: { avg, "p(95)": p95 },
    ...ok === undefined ? {} : { thresholds: { "p(95)<100": { ok } } },
  });
  const small: K6SummaryData = {
    root_group: {
      ...data.root_group,
      checks: [check("ok", 2, 0)],
      groups: [{ name: "g", path: "::g", id: "", groups: [], checks: [check("bad", 1, 1)] }],
    },
    options: { summaryTrendStats: ["avg", "p(95)"], summaryTimeUnit: "", noColor: true },
    state: data.state,
    metrics: {
      vus: { type: "gauge", contains: "default", values: { value: 1, min: 1, max: 2 } },
      http_reqs: { type: "counter", contains: "default", values: { count: 2, rate: 4 } },
      "http_req_duration{name:a}": time(0.5, 0.75),
      http_req_duration: time(1.5, 12.25, true),
      checks: { ...data.metrics.checks, values: { rate: 0.5, passes: 1, fails: 1 } },
    },
  };
  assertEquals(textSummary(small, { enableColors: false }).split("\n"), [
    "     ✓ ok",
    "",
    "     █ g",
    "",
    "       ✗ bad",
    "        ↳  50% — ✓ 1 / ✗ 1",
    "",
    "   ✗ checks..............: 50.00% ✓ 1   ✗ 1  ",
    "   ✓ http_req_duration...: avg=1.5ms p(95)=12.25ms",
    "       { name:a }........: avg=500µs p(95)=750µs  ",
    "     http_reqs...........: 2      4/s",
    "     vus.................: 1      min=1 max=2",
  ]);
  const colored = textSummary(small, { indent: "  " });
  ok(colored.startsWith("\x1b[32m      ✓ ok\x1b[0m\n"), colored);
  ok(
    colored.includes("    \x1b[31m✗\x1b[0m checks\x1b[2m..............:\x1b[0m \x1b[36m50.00%\x1b[0m "),
    colored,
  );
  // k6's own --summary-mode legacy: a rate's passes "out of" all.
  ok(textSummary(small, { enableColors: false }, "out of").includes(": 50.00% 1 out of 2\n"));
});
