import { deepStrictEqual as assertEquals, ok, throws } from "node:assert/strict";
import { loadExperiment, segmentPlan } from "./load.ts";
import { planExperiment } from "./plan/plan.ts";
import { ExperimentError } from "./experiment_error.ts";

const URLS = `
name: split
targets:
  mine: { url: "http://127.0.0.1:1" }
loads:
  x: { model: connections, connections: 8, duration: 1s }
  y: { model: rate, rate: 100, duration: 2s }
thresholds: ["p99 < 1s"]
`;

function issuesOf(f: () => unknown): string[] {
  try {
    f();
  } catch (err) {
    ok(err instanceof ExperimentError, String(err));
    return err.issues.map((i) => `${i.path}: ${i.message}`);
  }
  throw new Error("expected an ExperimentError");
}

Deno.test("segment plan: every run is segment i of N, the first starts at the shared instant", async () => {
  const plan = segmentPlan(
    planExperiment(await loadExperiment(URLS)),
    { index: 1, count: 4 },
    1_800_000_000_000,
  );
  assertEquals(plan.runs.map((r) => [r.name, r.attack.segment]), [
    ["mine/x", { index: 1, count: 4 }],
    ["mine/y", { index: 1, count: 4 }],
  ]);
  assertEquals(plan.runs.map((r) => r.attack.startAtEpochMs), [1_800_000_000_000, undefined]);
  assertEquals(plan.runs[0].thresholds, ["p99 < 1s"]);
});

Deno.test("segment plan refuses targets it would start, searches, warmup auto, too few connections", async () => {
  const builtin = URLS.replace(`mine: { url: "http://127.0.0.1:1" }`, "mine: { kind: builtin }");
  const builtinPlan = planExperiment(await loadExperiment(builtin));
  const [started] = issuesOf(() => segmentPlan(builtinPlan, { index: 0, count: 2 }));
  ok(started.startsWith("targets.mine: --segment needs url: targets"), started);
  const auto = planExperiment(await loadExperiment(URLS + "warmup: auto\n"));
  ok(issuesOf(() => segmentPlan(auto, { index: 0, count: 2 }))[0].startsWith("warmup"));
  const urls = planExperiment(await loadExperiment(URLS));
  const few = issuesOf(() => segmentPlan(urls, { index: 0, count: 16 }));
  ok(few[0].includes("need at least 16 connections") && few[0].includes("(in run mine/x)"), few[0]);
  throws(() => segmentPlan(builtinPlan, { index: 0, count: 2 }), ExperimentError);
});

Deno.test("segment plan refuses a threshold with abortOnFail: a shard holds part of the load, so it would never stop it", async () => {
  const aborting = URLS.replace(
    'thresholds: ["p99 < 1s"]',
    'thresholds: ["p99 < 1s", { expr: "p99 < 1s", abortOnFail: true }]',
  );
  const plan = planExperiment(await loadExperiment(aborting));
  const issues = issuesOf(() => segmentPlan(plan, { index: 0, count: 2 }));
  assertEquals(issues.length, 1, issues.join("\n"));
  ok(issues[0].startsWith("thresholds[1].abortOnFail: "), issues[0]);
  ok(issues[0].includes("--segment"), issues[0]);
});
