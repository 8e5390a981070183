/**
 * Truth table, `attack --json` of a run without a response (a closed port on 127.0.0.1): the JSON object
 * a script reads carries the `failed` verdict and no latency value at all (null), never a p99 of 0 ms
 * that a gate such as `.latencyMs.p99 < 200` would pass; the exit code is 4 as without `--json`.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { runLoadlab } from "../helpers.ts";
import { freePort } from "../../system/ports.ts";

Deno.test("--json without a response: the failed verdict, null for every latency statistic, exit 4", async () => {
  const url = `http://127.0.0.1:${freePort()}/`;
  const r = await runLoadlab(["attack", url, "-n", "10", "-c", "2", "--json", "--no-live"]);
  assertEquals(r.code, 4, r.stderr);
  const json = JSON.parse(r.stdout);
  assert(/^failed: no response \(connect \d+\)$/.test(json.verdict.label), json.verdict.label);
  assertEquals(json.requests, 0);
  for (const [stat, value] of Object.entries(json.latencyMs)) assertEquals(value, null, `latencyMs.${stat}`);
});
