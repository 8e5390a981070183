import assert from "node:assert/strict";
import { loadExperiment } from "../load.ts";
import { ExperimentOutput } from "./output.ts";
import { makeRun } from "../../tests/fixtures/make_run.ts";

Deno.test("log: off by default, true turns the request log on, anything else is an error", async () => {
  const file = "name: t\ntargets: { a: { kind: builtin } }\nloads: { l: { model: count, requests: 5 } }\n";
  assert.equal((await loadExperiment(file)).log, false);
  assert.equal((await loadExperiment(file + "log: true\n")).log, true);
  await assert.rejects(() => loadExperiment(file + "log: yes please\n"), /log/);
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

Deno.test("writes go out one at a time: each page is of the results.json written, the newest last", async () => {
  const dir = await Deno.makeTempDir();
  const pages: [number, number][] = [];
  const output = ExperimentOutput.fresh(dir, { name: "t" }, (results) => {
    pages.push([results.runs.length, JSON.parse(Deno.readTextFileSync(`${dir}/results.json`)).runs.length]);
    return `<p>${results.runs.length} runs</p>`;
  }, false);
  try {
    const opened = output.write();
    await output.append(makeRun({ name: "one", rps: 10, dist: { medianMs: 5, sigma: 0.3 } }));
    await opened;
    assert.deepEqual(pages, [[1, 1], [1, 1]], "no results.json of the other write between");
    assert.equal(await Deno.readTextFile(output.reportPath), "<p>1 runs</p>");
    assert.equal(JSON.parse(await Deno.readTextFile(output.resultsPath)).runs.length, 1);
  } finally {
    output.close();
    await Deno.remove(dir, { recursive: true });
  }
});
