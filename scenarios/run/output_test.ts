import assert from "node:assert/strict";
import { loadExperiment } from "../load.ts";
import { ExperimentOutput } from "./output.ts";

Deno.test("log: off by default, true turns the request log on, anything else is an error", () => {
  const file = "name: t\ntargets: { a: { kind: builtin } }\nloads: { l: { model: count, requests: 5 } }\n";
  assert.equal(loadExperiment(file).log, false);
  assert.equal(loadExperiment(file + "log: true\n").log, true);
  assert.throws(() => loadExperiment(file + "log: yes please\n"), /log/);
});

Deno.test("resume: a results.json that is a symlink loop is a ResultsFileError naming it, not a stack trace", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const experiment = { name: "t", file: "t.yaml" };
    await Deno.symlink(`${dir}/results.json`, `${dir}/results.json`);
    await assert.rejects(
      ExperimentOutput.open(dir, experiment, true, () => ""),
      (e: Error) => e.name === "ResultsFileError" && e.message.includes(`${dir}/results.json`),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
