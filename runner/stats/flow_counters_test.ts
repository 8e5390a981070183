/**
 * Flow totals from recorder to results: workers' samples merge to what one worker recording everything
 * gives, and a script's steps and checks, in each worker's own order, line up by name.
 */
import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { FlowRecorder, flowResults, type FlowSample } from "./flow_counters.ts";

const flows = [{ name: "browse", labels: ["GET /", "POST /login"] }, { name: "idle", labels: ["GET /x"] }];

/** Records sessions of `browse`: each [session us, step 0 us, step 1 us or null when it failed]. */
function record(recorder: FlowRecorder, sessions: Array<[number, number, number | null]>): void {
  for (const [sessionUs, firstUs, secondUs] of sessions) {
    recorder.sessionStarted(0);
    recorder.stepResponse(0, 0, firstUs);
    if (secondUs === null) {
      recorder.stepError(0, 1);
      recorder.sessionFailed(0);
    } else {
      recorder.stepResponse(0, 1, secondUs);
      recorder.sessionCompleted(0, sessionUs);
    }
  }
}

const sessions: Array<[number, number, number | null]> = [
  [150_000, 1_000, 2_000],
  [160_000, 3_000, null],
  [170_000, 5_000, 4_000],
  [180_000, 7_000, 6_000],
];

Deno.test("flow aggregate: two workers merge to what one worker recording everything gives", () => {
  const one = new FlowRecorder(flows);
  record(one, sessions);
  const single = flowResults([one.take()]);

  const a = new FlowRecorder(flows), b = new FlowRecorder(flows);
  record(a, sessions.slice(0, 1));
  record(b, sessions.slice(1));
  const merged = flowResults([b.take(), a.take()]);

  assertEquals(merged, single);
  const [browse, idle] = single!;
  assertEquals([browse.sessions, browse.completed, browse.failed], [4, 3, 1]);
  assertEquals(browse.steps.map((s) => [s.label, s.requests, s.errors]), [["GET /", 4, 0], [
    "POST /login",
    3,
    1,
  ]]);
  assertEquals(Math.round(browse.sessionMs!.min), 150);
  assertEquals([idle.sessions, idle.sessionMs, idle.steps[0].latencyMs], [0, null, null]);
});

Deno.test("flow aggregate: no samples, no flows; samples that do not line up throw", () => {
  assertEquals(flowResults([]), undefined);
  throws(() => flowResults([new FlowRecorder(flows).take(), new FlowRecorder(flows.slice(0, 1)).take()]));
});

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

Deno.test("a script's steps and checks line up by name over workers, in first-seen order", () => {
  const [flow] = flowResults([
    [sample([step("login", 2, [{ name: "ok", passed: 2, failed: 0 }]), step("me", 1)])],
    [sample([step("me", 3, [{ name: "me 200", passed: 1, failed: 2 }]), step("json", 4)])],
  ])!;
  assertEquals(flow.steps.map((s) => [s.label, s.requests]), [["login", 2], ["me", 4], ["json", 4]]);
  assertEquals(flow.steps.map((s) => s.checks), [
    [{ name: "ok", passed: 2, failed: 0 }],
    [{ name: "me 200", passed: 1, failed: 2 }],
    undefined,
  ]);
});

Deno.test("one worker's steps are kept as they are, a label met twice counted twice", () => {
  const [flow] = flowResults([[sample([step("a", 1), step("a", 2)])]])!;
  assertEquals(flow.steps.map((s) => [s.label, s.requests]), [["a", 1], ["a", 2]]);
});

Deno.test("workers of a flow that sends one request twice keep both steps, each added by its place", () => {
  const worker = () => [sample([step("a", 1, [{ name: "ok", passed: 1, failed: 0 }]), step("a", 2)])];
  const [flow] = flowResults([worker(), worker()])!;
  assertEquals(flow.steps.map((s) => [s.label, s.requests]), [["a", 2], ["a", 4]]);
  assertEquals(flow.steps[0].checks, [{ name: "ok", passed: 2, failed: 0 }]);
});
