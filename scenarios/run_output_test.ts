import assert from "node:assert/strict";
import { loadExperiment } from "./load.ts";

Deno.test("log: off by default, true turns the request log on, anything else is an error", () => {
  const file = "name: t\ntargets: { a: { kind: builtin } }\nloads: { l: { model: count, requests: 5 } }\n";
  assert.equal(loadExperiment(file).log, false);
  assert.equal(loadExperiment(file + "log: true\n").log, true);
  assert.throws(() => loadExperiment(file + "log: yes please\n"), /log/);
});
