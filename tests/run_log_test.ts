/**
 * `log: true` in an experiment file: every request of every run is written to
 * `<out-dir>/requests/<run>.csv` (Gocannon's raw log, runner/load/request_log.ts), the run's `logFile`
 * names it, and it holds exactly one line per completed request. A count load makes the number exact.
 */
import { loadlabInProcess } from "./in_process.ts";
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import type { ResultsFile } from "../results/mod.ts";
import { testPool } from "./fixtures/test_pool.ts";

const LOGGED = `
name: logged
targets:
  a: { kind: builtin }
loads:
  fixed: { model: count, requests: 120, connections: 3 }
repeats: 2
log: true
`;

/** Both cases at once: their `loadlab run`s one at a time, in this process. */
const pool = testPool(2);

pool.test("run with log: true writes one request log per run, a line per request", async () => {
  const dir = await Deno.makeTempDir({ prefix: "loadlab-log-" });
  try {
    await Deno.writeTextFile(`${dir}/exp.yaml`, LOGGED + "requests: [/json, /error/1]\n");
    const out = await loadlabInProcess(["run", `${dir}/exp.yaml`, "--out-dir", `${dir}/out`]);
    assertEquals(out.code, 0, out.stderr);
    const results: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`));
    assertEquals(results.runs.map((r) => r.logFile), [
      `${dir}/out/requests/a_fixed_1.csv`,
      `${dir}/out/requests/a_fixed_2.csv`,
    ]);
    for (const run of results.runs) {
      const lines = (await Deno.readTextFile(run.logFile!)).trimEnd().split("\n");
      assertEquals(lines[0], "code;startUs;endUs;connection");
      assertEquals(lines.length - 1, run.requests, `${run.name}: one line per request`);
      const codes = new Set(lines.slice(1).map((l) => l.split(";")[0]));
      assertEquals([...codes].sort(), ["200", "500"]);
      ok(lines.slice(1).every((l) => /^\d+;\d+;\d+;\d+$/.test(l)), "code;startUs;endUs;connection");
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

pool.test("runs whose names look alike as file names get request logs of their own; a long name fits", async () => {
  // a_b/once and a/b_once were both requests/a_b_once.csv: the second run's log replaced the first's.
  const long = "v".repeat(300);
  const dir = await Deno.makeTempDir({ prefix: "loadlab-log-" });
  try {
    await Deno.writeTextFile(
      `${dir}/exp.yaml`,
      `name: alike
targets:
  a_b: { kind: builtin }
  a: { kind: builtin }
loads:
  once: { model: count, requests: 5, connections: 1 }
  b_once: { model: count, requests: 7, connections: 1 }
sweeps: [{ parameter: query.x, values: ["x y", "x/y", "${long}"], loads: [b_once], targets: [a] }]
log: true
`,
    );
    const out = await loadlabInProcess(["run", `${dir}/exp.yaml`, "--out-dir", `${dir}/out`]);
    assertEquals(out.code, 0, out.stderr);
    const results: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`));
    const files = results.runs.map((r) => r.logFile!);
    assertEquals(new Set(files).size, results.runs.length, files.join("\n"));
    for (const run of results.runs) {
      ok(run.logFile!.startsWith(`${dir}/out/requests/`), run.logFile);
      const name = run.logFile!.slice(`${dir}/out/requests/`.length);
      ok(name.length <= 200 && !name.includes("/"), name);
      const lines = (await Deno.readTextFile(run.logFile!)).trimEnd().split("\n");
      assertEquals(lines.length - 1, run.requests, `${run.name}: its own log, one line per request`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
