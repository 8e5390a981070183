import assert from "node:assert/strict";
import { loadPlan } from "../load.ts";
import { abortRules, judgeThresholds, parseAllThresholds } from "./thresholds.ts";
import { makeRun } from "../../tests/fixtures/make_run.ts";

const plan = await loadPlan(
  `
name: judged
targets:
  app: { url: "http://127.0.0.1:9" }
loads:
  slow: { model: connections, connections: 1, duration: 1s }
  after: { model: connections, connections: 1, duration: 1s }
thresholds:
  - "app/after:p99<1ms"
  - { expr: "p99<60s", load: slow, abortOnFail: true, delayAbortEval: 2s }
`,
  { preflight: false },
);
const thresholds = parseAllThresholds(plan);
const run = (load: string) =>
  makeRun({ name: `app/${load}`, variant: "app", load, rps: 100, dist: { medianMs: 5, sigma: 0.3 } });

Deno.test("judgeThresholds: a rule naming a run is judged on that run only; scopes are kept", () => {
  const results = judgeThresholds(plan, thresholds, [run("slow"), run("after")]);
  assert.deepEqual(
    results.map((r) => [r.expression, r.run, r.ok, r.scope]),
    [
      ["p99<60s", "app/slow", true, { load: "slow" }],
      ["app/after:p99<1ms", "app/after", false, undefined],
    ],
  );
  // A planned run with no result (not run: an abortOnFail stopped the experiment) is not judged.
  assert.deepEqual(judgeThresholds(plan, thresholds, [run("slow")]).map((r) => r.run), ["app/slow"]);
});

Deno.test("abortRules: the planned run's abortOnFail rules parsed, none on a shard", () => {
  const slow = plan.runs.find((r) => r.load === "slow")!;
  const rules = abortRules(slow, thresholds, false);
  assert.deepEqual(rules.map((r) => [r.threshold.expression, r.delayMs]), [["p99<60s", 2000]]);
  assert.deepEqual(abortRules(slow, thresholds, true), []);
  assert.deepEqual(abortRules(plan.runs.find((r) => r.load === "after")!, thresholds, false), []);
});
