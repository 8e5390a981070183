/**
 * A run with a warm-up stores its target's counters twice: over the whole run (warm-up requests included,
 * as the counters are cumulative) and from a snapshot at the warm-up's end, the requests the latency
 * statistics cover. Bounded: two connections for 0.5 s of warm-up and 1 s measured, on loopback.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import type { ResultsFile } from "../results/mod.ts";
import { runLoadlab, withTempDir } from "./helpers.ts";

Deno.test("target counters with a warm-up: the whole run and the measured part, side by side", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(
      `${dir}/exp.yaml`,
      `name: counters
targets:
  cached: { kind: builtin, cacheTtlSec: 60 }
loads:
  closed: { model: connections, connections: 2, duration: 1s, requests: [/static/index.html] }
warmup: 500ms
interval: 100ms
`,
    );
    const out = await runLoadlab(["run", `${dir}/exp.yaml`, "--out-dir", `${dir}/out`]);
    assertEquals(out.code, 0, out.stderr);
    const results: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`));
    const run = results.runs[0];
    const whole = run.targetStats!, measured = run.targetStatsMeasured!;
    ok(measured, "a run with a warm-up has the measured counters");
    ok(measured.cacheHits > 0, `measured hits: ${measured.cacheHits}`);
    ok(whole.cacheHits > measured.cacheHits, `warm-up hits are only in the whole run's: ${whole.cacheHits}`);
    ok(whole.cacheMisses >= 1, "the first requests filled the cache during the warm-up");
    assertEquals(measured.cacheMisses, 0);
  });
});
