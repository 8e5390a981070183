import assert from "node:assert/strict";
import { requestLogPath } from "./run_output.ts";
import { loadExperiment } from "./schema.ts";

Deno.test("requestLogPath: one CSV per run under requests/, the run name made a file name", () => {
  assert.equal(requestLogPath("out/x", "express/json#2"), "out/x/requests/express_json_2.csv");
  assert.equal(requestLogPath("o", "a/b/query.ms=5"), "o/requests/a_b_query.ms=5.csv");
});

Deno.test("log: off by default, true turns the request log on, anything else is an error", () => {
  const file = "name: t\ntargets: { a: { kind: builtin } }\nloads: { l: { model: count, requests: 5 } }\n";
  assert.equal(loadExperiment(file).log, false);
  assert.equal(loadExperiment(file + "log: true\n").log, true);
  assert.throws(() => loadExperiment(file + "log: yes please\n"), /log/);
});
