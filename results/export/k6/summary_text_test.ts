/**
 * k6's legacy `--summary-export` shape from summary data: a rate's `value`, a trend's asked stats alone,
 * thresholds true when failed, and checks by name, one per name as k6 counts them (passes and fails summed).
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { type K6SummaryData, k6SummaryExport } from "./summary_text.ts";

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
