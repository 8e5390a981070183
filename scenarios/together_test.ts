import assert from "node:assert/strict";
import { loadExperiment } from "./load.ts";
import { planExperiment } from "./plan/plan.ts";

const TOGETHER = `
name: t
targets:
  a: { kind: builtin }
loads:
  x: { model: connections, connections: 2, duration: 1s }
  y: { model: rate, rate: 10, duration: 2s }
  z: { model: count, requests: 5 }
together: { x: 0s, y: 1500ms }
repeats: 2
`;

Deno.test("together: the loads named run as one run per repeat, each with its start; the others alone", async () => {
  const plan = planExperiment(await loadExperiment(TOGETHER));
  assert.deepEqual(plan.runs.map((r) => r.name), ["a/x+y#1", "a/z#1", "a/x+y#2", "a/z#2"]);
  const [run] = plan.runs;
  assert.equal(run.load, "x+y");
  assert.deepEqual(run.parts?.map((p) => [p.name, p.startAfterMs, p.attack.model]), [
    ["x", 0, "connections"],
    ["y", 1500, "rate"],
  ]);
  assert.equal(plan.runs[1].parts, undefined);
  // --only one of them plans that one alone.
  const only = planExperiment(await loadExperiment(TOGETHER), { only: { load: ["y"] } });
  assert.deepEqual(only.runs.map((r) => [r.name, r.parts?.length]), [["a/y#1", 1], ["a/y#2", 1]]);
});

Deno.test("together: an unknown load, a sweep over one of them and the request log are refused at their paths", async () => {
  const text = TOGETHER.replace("y: 1500ms", "w: 1s") +
    "sweeps:\n  - { parameter: load.connections, values: [1, 2], loads: [x] }\nlog: true\n";
  await assert.rejects(() => loadExperiment(text), (err: Error) => {
    for (const at of ["together.w", "sweeps[0]", "log"]) assert.ok(err.message.includes(at), err.message);
    return true;
  });
});
