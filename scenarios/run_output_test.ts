import assert from "node:assert/strict";
import { requestLogError, requestLogPath } from "./run_output.ts";
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

Deno.test("requestLogError: a log write failing in a worker or at open names the log and the OS error; others are not", () => {
  const full = "No space left on device (os error 28)";
  const inWorker = new Error(`load worker 0 failed: request log: Error: ${full}`);
  assert.equal(requestLogError(inWorker, "o/l.csv")?.message, `cannot write o/l.csv: ${full}`);
  const atOpen = new Error(`${full}: open 'o/l.csv'`);
  assert.equal(requestLogError(atOpen, "o/l.csv")?.message, `cannot write o/l.csv: ${full}`);
  assert.equal(requestLogError(new Error(`${full}: open 'elsewhere.csv'`), "o/l.csv"), null);
  assert.equal(requestLogError(new Error("load worker 0 failed: boom"), "o/l.csv"), null);
});
