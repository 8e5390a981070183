/**
 * End to end: Redis dies under the caching proxy during `loadlab run`. The run still exits 0 (every
 * request was answered, from the upstream), but the terminal and the run's detail in report.html say
 * that the cache was bypassed and for how many requests, so the run does not pass for a cached one.
 */
import { deepStrictEqual as assertEquals, match as assertMatch, ok as assert } from "node:assert/strict";
import { requireProgram, withTempDir } from "./helpers.ts";
import {
  cachedProxyExperiment,
  eventually,
  readResults,
  redisKeys,
  redisOn,
  sleep,
  spawnRun,
} from "./fault_drill_helpers.ts";
import { freePort } from "../system/ports.ts";
import { describeProcesses, waitUntilGone } from "./marked_processes.ts";
import { formatCount } from "../results/text_format.ts";

const hasRedis = requireProgram("redis-server");

Deno.test({
  name:
    "Redis dies under the caching proxy: the terminal and the report's run detail say the cache was bypassed",
  ignore: !hasRedis,
  async fn() {
    await withTempDir(async (dir) => {
      const runId = `bypass-warning-${crypto.randomUUID()}`;
      const port = freePort();
      const redis = await redisOn(port, runId);
      await Deno.writeTextFile(`${dir}/exp.json`, cachedProxyExperiment("bypass", port, "4s"));
      const { output } = spawnRun(dir, runId);
      let result;
      try {
        assert(await eventually(() => redisKeys(port).then((n) => n > 0), 30_000), "the proxy never cached");
        await sleep(500);
        await redis.kill(); // and it stays dead until the end of the run
        result = await output;
      } finally {
        await redis.kill();
      }
      assertEquals(result.code, 0, result.text);
      const run = (await readResults(dir))!.runs[0];
      const { hits = 0, misses = 0, bypasses = 0 } = run.targetStats ?? {};
      assert(bypasses >= 10, JSON.stringify(run.targetStats));
      const seen = formatCount(hits + misses + bypasses);
      const counted = `cache bypassed for ${formatCount(bypasses)} of ${seen} cacheable requests`;
      assertMatch(result.text, new RegExp(`warning: ${counted} \\(\\d+(\\.\\d)?%\\): Redis failed`));
      const html = await Deno.readTextFile(`${dir}/out/report.html`);
      assert(html.includes(counted), "the run detail data of report.html carries the sentence");
      const left = await waitUntilGone(runId, 5000);
      assertEquals(left, [], describeProcesses(left));
    });
  },
});
