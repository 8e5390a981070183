/**
 * @module
 * Truth table, a hard-stopped sweep: `gracefulStop: 0s` ends every run with its connections' requests
 * still in flight against a target that answers each in 300 ms. The experiment's own stop cut them, so
 * they are shown as `unfinished by gracefulStop`, never among the failures of the success rate, never
 * `lost`, and the verdict stays ok (`--strict` exits 0). Two closed runs of 1 s on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { runLoadlab, withTempDir } from "../helpers.ts";
import type { ResultsFile } from "../../results/mod.ts";
import { runVerdict } from "../../results/conclude/run_verdict.ts";

/** Answers every request after 300 ms. */
function slowTarget() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async () => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    return new Response("slow");
  });
  return { port: server.addr.port, close: () => server.shutdown() };
}

const experiment = (port: number) => `
name: hard-stop
targets:
  slow: { url: "http://127.0.0.1:${port}" }
loads:
  closed: { model: connections, connections: 4, duration: 1s, gracefulStop: 0s, requests: [/] }
sweeps:
  - parameter: load.connections
    values: [4, 8]
`;

Deno.test("a sweep cut by its own gracefulStop: 0s shows unfinished requests, not lost ones, and stays ok", async () => {
  const target = slowTarget();
  try {
    await withTempDir(async (dir) => {
      await Deno.writeTextFile(`${dir}/stop.yaml`, experiment(target.port));
      const r = await runLoadlab(["run", `${dir}/stop.yaml`, "--out-dir", `${dir}/out`, "--strict"]);
      const results: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`));
      assert.equal(results.runs.length, 2);
      for (const run of results.runs) {
        assert.ok((run.unfinished ?? 0) > 0, `${run.name}: the stop cut requests in flight`);
        assert.deepEqual(run.errors, {}, `${run.name}: no failure of the target`);
        assert.equal(run.successRate, 1, run.name);
        assert.equal(runVerdict(run).label, "ok", run.name);
        assert.match(r.stdout, new RegExp(`${run.unfinished} unfinished by gracefulStop \\(0 s\\)`));
      }
      assert.equal(r.code, 0, r.stderr);
    });
  } finally {
    await target.close();
  }
});
