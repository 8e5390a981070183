/**
 * k6/execution's numbers across the whole test, through `loadlab run` against the built-in target: each
 * iteration's number among its scenario's (every VU and worker counted together) and the iterations the
 * run completed, read by a second scenario started later. A few iterations each.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { withTarget } from "./helpers.ts";
import { runK6Text } from "./k6_run.ts";

Deno.test("exec.scenario.iterationInTest numbers a scenario's iterations across its VUs; iterationsCompleted is the run's", () =>
  withTarget(async (url) => {
    const run = await runK6Text(
      `import http from "k6/http";
import exec from "k6/execution";
import { Trend } from "k6/metrics";
const seenA = new Trend("seen_a"), seenB = new Trend("seen_b"), doneB = new Trend("done_before_b");
export const options = {
  scenarios: {
    a: { executor: "shared-iterations", vus: 3, iterations: 12, exec: "a" },
    b: { executor: "per-vu-iterations", vus: 2, iterations: 3, exec: "b", startTime: "3s" },
  },
};
export function a() {
  seenA.add(exec.scenario.iterationInTest);
  http.get("http://app.test/json");
}
export function b() {
  seenB.add(exec.scenario.iterationInInstance);
  doneB.add(exec.instance.iterationsCompleted);
  http.get("http://app.test/json");
}
`,
      url,
      ["-q", "--summary-export", "export.json", "--summary-trend-stats", "avg,min,max,count"],
    );
    assertEquals(run.code, 0, run.text);
    const m = JSON.parse(Deno.readTextFileSync(`${run.dir}/export.json`)).metrics;
    // 0 to 11 once each, whichever of the three VUs ran it.
    assertEquals([m.seen_a.count, m.seen_a.min, m.seen_a.max, m.seen_a.avg], [12, 0, 11, 5.5]);
    assertEquals([m.seen_b.count, m.seen_b.min, m.seen_b.max, m.seen_b.avg], [6, 0, 5, 2.5]);
    // Scenario a's 12 ended before b started (on other workers); b's own count as they end.
    ok(m.done_before_b.min >= 12 && m.done_before_b.max <= 17, JSON.stringify(m.done_before_b));
  }));
