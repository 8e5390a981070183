/**
 * Lining up workers' flow samples: a script's steps come in each worker's own order and with the checks it
 * met; after `alignFlowSamples` every worker has the same steps and checks by index, zeros where it had none.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { alignFlowSamples } from "./flow_align.ts";
import type { FlowSample } from "./flow_counters.ts";

const step = (label: string, requests: number, checks: FlowSample["steps"][number]["checks"] = []) => ({
  label,
  requests,
  errors: 0,
  histogram: null,
  checks,
});
const sample = (steps: FlowSample["steps"]): FlowSample => ({
  name: "s.ts",
  sessions: 1,
  completed: 1,
  failed: 0,
  captureFailed: 0,
  noData: 0,
  sessionHistogram: null,
  steps,
});

Deno.test("steps and checks line up by name over workers, in first-seen order", () => {
  const [a, b] = alignFlowSamples([
    [sample([step("login", 2, [{ name: "ok", passed: 2, failed: 0 }]), step("me", 1)])],
    [sample([step("me", 3, [{ name: "me 200", passed: 1, failed: 2 }]), step("json", 4)])],
  ]);
  assertEquals(a[0].steps.map((s) => [s.label, s.requests]), [["login", 2], ["me", 1], ["json", 0]]);
  assertEquals(b[0].steps.map((s) => [s.label, s.requests]), [["login", 0], ["me", 3], ["json", 4]]);
  assertEquals(a[0].steps[1].checks, [{ name: "me 200", passed: 0, failed: 0 }]);
  assertEquals(b[0].steps[1].checks, [{ name: "me 200", passed: 1, failed: 2 }]);
  assertEquals(b[0].steps[0].checks, [{ name: "ok", passed: 0, failed: 0 }]);
});

Deno.test("one worker's samples are kept as they are", () => {
  const one = [[sample([step("a", 1)])]];
  assertEquals(alignFlowSamples(one), one);
});
