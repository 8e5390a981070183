import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { FlowRecorder } from "./flow_recorder.ts";
import { FlowAggregator } from "./flow_aggregate.ts";

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
  const single = new FlowAggregator();
  single.add(one.take());

  const a = new FlowRecorder(flows), b = new FlowRecorder(flows);
  record(a, sessions.slice(0, 1));
  record(b, sessions.slice(1));
  const merged = new FlowAggregator();
  merged.add(b.take());
  merged.add(a.take());

  assertEquals(merged.finish(), single.finish());
  const [browse, idle] = single.finish()!;
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
  assertEquals(new FlowAggregator().finish(), undefined);
  const aggregator = new FlowAggregator();
  aggregator.add(new FlowRecorder(flows).take());
  throws(() => aggregator.add(new FlowRecorder(flows.slice(0, 1)).take()));
});
