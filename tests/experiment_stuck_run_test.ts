/**
 * An experiment whose run a load worker cut (its session never yielded, so the worker was ended as stuck)
 * keeps that run, flagged `incomplete` with the reason, and goes on: the runs after it run, the analysis
 * is written and the file is complete. Before, the experiment stopped there with exit 0 and its later
 * runs silently missing, and a capacity search whose probe was cut vanished from the results. One
 * connection, 1 s runs with a 1 s timeout and no graceful stop: bounded in time and load.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import type { ResultsFile } from "../results/mod.ts";
import { runLoadlab, withTempDir } from "./helpers.ts";

const SCRIPT = new URL("./fixtures/scripts/blocking_once.ts", import.meta.url).pathname;

Deno.test({
  name:
    "run: a run whose worker was ended as stuck is kept flagged, and the experiment's later runs still run",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withTempDir(async (dir) => {
      const file = join(dir, "stuck.yaml");
      await Deno.writeTextFile(
        file,
        `name: stuck
targets:
  app: { kind: builtin }
script: ${SCRIPT}
loads:
  one: { model: connections, connections: 1, duration: 1s, timeout: 1s, gracefulStop: 0s }
repeats: 3
warmup: 0s
`,
      );
      const out = await runLoadlab(["run", file, "--out-dir", join(dir, "out")], {
        BLOCK_ONCE_MARKER: join(dir, "blocked"),
      });
      const results: ResultsFile = JSON.parse(await Deno.readTextFile(join(dir, "out", "results.json")));
      assertEquals(results.runs.length, 3, out.stdout + out.stderr);
      const [first, ...later] = results.runs;
      assertEquals([first.incomplete, first.stuckWorkers], [true, 1], out.stdout);
      for (const run of later) ok(!run.incomplete && run.requests > 0, JSON.stringify(run.verdict));
      ok(results.complete, "the experiment ran to its end");
      ok(results.analysis, "its analysis is written");
      ok(/incomplete: 1 worker stuck/.test(out.stdout), out.stdout);
    }),
});
