/**
 * @module
 * Truth table, generator-bound: the load generator, not the target, is what could not keep up. Each session's
 * one step captures with a backtracking regexp on the answer (`^(a+)+$` on 21 a's and a `!`: about 10 ms of
 * CPU per answer in the load worker, the first about 100 before V8 compiles the regexp), at 400 arrivals a
 * second on one worker: seconds of work per second of load on an idle machine, more on a busy one, while
 * the target answers at once. So the isolate sends late whatever the machine's load, and loadlab must say
 * `generator-bound` (never `server-bound`, never `ok`), exit 0 without `--strict` and 6 with it. Bounded: 1 s
 * of load, no graceful stop, a 90 s guard.
 */
import assert from "node:assert/strict";
import { runLoadlab, withTempDir } from "../helpers.ts";
import type { RunResult } from "../../results/mod.ts";
import { runVerdict } from "../../results/conclude/run_verdict.ts";

/**
 * A target whose every answer is the capture's slow case: 21 a's then a `!`. Not more: one answer's capture
 * must stay well under the 0.6 s after which a silent worker is ended as stuck, on busy cores too.
 */
function backtrackingTarget() {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response(`${"a".repeat(21)}!`),
  );
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

function experiment(url: string): string {
  return `name: generator-bound
targets:
  t: { url: "${url}" }
loads:
  l: { model: rate, rate: 400, workers: 1, duration: 1s, gracefulStop: 0s }
flows:
  - name: f
    steps:
      - get: /
        capture: [{ regexp: "^(a+)+$", as: x }]
`;
}

Deno.test({
  name:
    "truth table: a load worker too busy to send on time reads generator-bound, exit 6 only with --strict",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const target = backtrackingTarget();
    try {
      await withTempDir(async (dir) => {
        await Deno.writeTextFile(`${dir}/exp.yaml`, experiment(target.url));
        const plain = await runLoadlab(["run", `${dir}/exp.yaml`, "--out-dir", `${dir}/out`]);
        assert.equal(plain.code, 0, plain.stderr);
        const run: RunResult = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`)).runs[0];
        const { label } = runVerdict(run);
        assert.equal(run.serverBound, false, label);
        // On a crowded machine the busy worker can miss the collector's liveness turn: then it is ended as
        // stuck and its late sends go with it, and the run says so (incomplete) instead; never ok.
        const flag = run.stuckWorkers ? /(generator-bound|incomplete: 1 worker stuck)/ : /generator-bound/;
        if (!run.stuckWorkers) assert.equal(run.generatorBound, true, label);
        assert.match(label, flag);
        assert.match(plain.stdout, new RegExp(`\\[[^\\]]*${flag.source}[^\\]]*\\]`), plain.stdout);
        const strict = await runLoadlab(["run", `${dir}/exp.yaml`, "--out-dir", `${dir}/strict`, "--strict"]);
        assert.equal(strict.code, 6, strict.stderr);
        assert.match(
          strict.stderr,
          /--strict: run .* is flagged: (generator-bound|incomplete: 1 worker stuck)/,
        );
      });
    } finally {
      await target.close();
    }
  },
});
