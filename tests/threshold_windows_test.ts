/**
 * @module
 * `p99<100ms over 500ms` end to end: a target that answers at once except for one slow stretch of the
 * run (24 answers in a row wait 150 ms) fails the windowed rule with exit 1 and the worst window as the
 * actual value, while the whole run's p99, which the fast answers dominate, is lower. Only directions are
 * asserted (a slow answer cannot be faster than its sleep); the load is 3 s on 127.0.0.1.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { runLoadlab, withTempDir } from "./helpers.ts";
import type { ResultsFile } from "../results/mod.ts";

Deno.test("attack --threshold 'p99<100ms over 500ms' fails on the slow stretch the whole run hides", async () => {
  // A second into the run, the next 24 answers (6 on each of the 4 connections: ~0.9 s) wait 150 ms each:
  // counted rather than timed, so a busy machine's stalled event loop cannot skip the slow stretch.
  let firstMs = 0;
  let slowLeft = 24;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async () => {
    const now = Date.now();
    firstMs ||= now;
    if (now - firstMs > 1000 && slowLeft > 0) {
      slowLeft--;
      await new Promise((r) => setTimeout(r, 150));
    }
    return new Response("ok");
  });
  try {
    await withTempDir(async (dir) => {
      const out = await runLoadlab([
        "attack",
        `http://127.0.0.1:${server.addr.port}/`,
        "-c",
        "4",
        "-d",
        "3s",
        "--interval",
        "250ms",
        "--no-live",
        "--out",
        `${dir}/r.json`,
        "--threshold",
        "p99<100ms over 500ms",
        "--threshold",
        "p99<100s",
      ]);
      assertEquals(out.code, 1, out.stdout + out.stderr);
      const results: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
      const [windowed, whole] = results.thresholds;
      assertEquals([windowed.expression, windowed.ok, whole.ok], ["p99<100ms over 500ms", false, true]);
      assert(windowed.actual >= 150, `worst window p99 ${windowed.actual} ms, the answers slept 150 ms`);
      assert(results.runs[0].latencyMs.p99 < windowed.actual, "the whole run's p99 is lower");
      assert(/FAIL {2}p99<100ms over 500ms {2}\(attack: \d+\.\d\d ms\)/.test(out.stdout), out.stdout);
    });
  } finally {
    await server.shutdown();
  }
});
