/**
 * @module
 * `loadlab report --compare` judges a pair of runs by the one rule of results/conclude (judged.ts, then
 * noise.ts): when a side is one loadlab's own numbers made (generator-bound here), no change of the pair
 * reads "beyond noise" or "within noise"; each says "noise not judged" and which side carries which flag,
 * in the words the findings use. Real runs: a baseline of a target answering at once, and a candidate whose
 * load worker is held up by a backtracking capture on every answer (the way the generator-bound truth table
 * makes a load worker that cannot send on time, whatever the machine's load); both 1 s on one worker.
 */
import { loadlabInProcess } from "./in_process.ts";
import assert from "node:assert/strict";
import { withTempDir } from "./helpers.ts";
import type { ResultsFile } from "../results/mod.ts";

/** A target answering `body` to everything, on a free loopback port. */
function target(body: string) {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response(body));
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** One run named t/l: `rate` arrivals a second, each capturing with `^(a+)+$` from the answer. */
const experiment = (url: string, rate: number) =>
  `name: compared
targets:
  t: { url: "${url}" }
loads:
  l: { model: rate, rate: ${rate}, workers: 1, duration: 1s, gracefulStop: 0s }
flows:
  - name: f
    steps:
      - get: /
        capture: [{ regexp: "^(a+)+$", as: x }]
`;

interface Cell {
  verdict: string;
  notJudged?: string | null;
}

function embeddedData(page: string) {
  const m = page.match(/<script type="application\/json" id="loadlab-data">([\s\S]*?)<\/script>/);
  assert.ok(m, "data block present");
  return JSON.parse(m[1]) as { compare: Array<{ name: string; cells: Record<string, Cell> }> };
}

Deno.test({
  name:
    "report --compare: a generator-bound side makes every change of the pair 'noise not judged', naming it",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    // "aaaa" matches at once; 20 a's and a "!" backtrack for milliseconds of CPU per answer (22 took tens
    // of them on a busy machine: the backlog at the load's end outlasted the stuck margin).
    const [fast, slow] = [target("aaaa"), target(`${"a".repeat(20)}!`)];
    try {
      await withTempDir(async (dir) => {
        await Deno.writeTextFile(`${dir}/base.yaml`, experiment(fast.url, 20));
        await Deno.writeTextFile(`${dir}/cand.yaml`, experiment(slow.url, 400));
        const base = await loadlabInProcess(["run", `${dir}/base.yaml`, "--out-dir", `${dir}/base`]);
        assert.equal(base.code, 0, base.stderr);
        const cand = await loadlabInProcess(["run", `${dir}/cand.yaml`, "--out-dir", `${dir}/cand`]);
        assert.equal(cand.code, 0, cand.stderr);
        const candRun =
          (JSON.parse(await Deno.readTextFile(`${dir}/cand/results.json`)) as ResultsFile).runs[0];
        // On a crowded machine the busy worker can miss the collector's liveness turn and be ended as stuck:
        // then the side is "incomplete" instead, a flag of loadlab's that blocks the judgement just the same.
        const flag = candRun.stuckWorkers ? "(generator-bound|incomplete)" : "generator-bound";
        if (!candRun.stuckWorkers) {
          assert.equal(candRun.generatorBound, true, "the worker could not send on time");
        }

        const out = `${dir}/report.html`;
        const report = await loadlabInProcess([
          "report",
          `${dir}/cand/results.json`,
          "--compare",
          `${dir}/base/results.json`,
          "-o",
          out,
        ]);
        assert.equal(report.code, 0, report.stderr);
        const row = embeddedData(await Deno.readTextFile(out)).compare.find((r) => r.name === "t/l");
        assert.ok(row, "the pair is matched by name");
        for (const [metric, cell] of Object.entries(row.cells)) {
          assert.equal(cell.verdict, "unknown", `${metric}: neither beyond nor within noise`);
          assert.match(cell.notJudged ?? "", new RegExp(`(^|, )candidate is ${flag}`), metric);
        }
      });
    } finally {
      await Promise.all([fast.close(), slow.close()]);
    }
  },
});
