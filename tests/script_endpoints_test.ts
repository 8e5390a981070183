/**
 * A session script's requests as endpoints, end to end against the built-in target: each named request
 * recorded under its name across 2 workers, over HTTP/1.1 and h2c (counts adding up to the run's, the
 * sleep's own latency), the script's thresholds by endpoint judged after the run (one naming no endpoint
 * fails, saying so, and is not refused before the load), and two segments merged giving the per-endpoint
 * sums. Bounded counts.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { createTargetApp } from "../targets/app/app.ts";
import { parseAttackConfig } from "../runner/config.ts";
import { runAttack } from "../runner/attack.ts";
import { mergeShardRuns } from "../results/merge/shard_runs.ts";
import type { ResultsFile, RunResult } from "../results/mod.ts";
import { runLoadlab, withTempDir } from "./helpers.ts";
import { runVerdict } from "../results/conclude/run_verdict.ts";
import { flaggedRunPhrase } from "../results/thresholds/text.ts";

const SCRIPT = new URL("./fixtures/scripts/json_sleep.ts", import.meta.url).pathname;

async function withTarget(fn: (url: string) => Promise<void>): Promise<void> {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, createTargetApp().fetch);
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`);
  } finally {
    await server.shutdown();
  }
}

function scriptRun(url: string, extra: Record<string, unknown> = {}): Promise<RunResult> {
  const config = { url, model: "count" as const, requests: 20, connections: 2, workers: 2, intervalMs: 100 };
  return runAttack(parseAttackConfig({ ...config, script: { path: SCRIPT }, ...extra }));
}

function counts(run: RunResult): Array<[string, number, number]> {
  return (run.endpoints ?? []).map((
    e,
  ) => [e.name, e.requests, e.intervals.requests.reduce((a, b) => a + b, 0)])
    .sort() as Array<[string, number, number]>;
}

Deno.test("a script's named requests are two endpoints across 2 workers, adding up to the run", () =>
  withTarget(async (url) => {
    const run = await scriptRun(url);
    assertEquals(run.requests, 40);
    assertEquals(counts(run), [["json", 20, 20], ["sleep", 20, 20]]);
    const sleep = run.endpoints!.find((e) => e.name === "sleep")!;
    ok(sleep.latencyMs !== null && sleep.latencyMs.p50 >= 20, JSON.stringify(sleep.latencyMs));
    assertEquals(sleep.statusCodes, { "200": 20 });
  }));

Deno.test("over h2c too: each stream recorded under its request's name", () =>
  withTarget(async (url) => {
    const run = await scriptRun(url, { protocol: "h2c" });
    assertEquals(run.protocol, "h2c");
    assertEquals(counts(run), [["json", 20, 20], ["sleep", 20, 20]]);
  }));

Deno.test("2 segments of a script merged: the per-endpoint counts are the segments' sums", () =>
  withTarget(async (url) => {
    const shards = [];
    for (const index of [0, 1]) {
      shards.push(await scriptRun(url, { connections: 4, segment: { index, count: 2 } }));
    }
    for (const shard of shards) assertEquals(counts(shard), [["json", 10, 10], ["sleep", 10, 10]]);
    const merged = mergeShardRuns(shards);
    assertEquals(counts(merged), [["json", 20, 20], ["sleep", 20, 20]]);
  }));

Deno.test("a script's thresholds by endpoint are judged after the run; one naming no endpoint fails", () =>
  withTempDir(async (dir) => {
    const r = await runLoadlab(["run", SCRIPT, "--out-dir", dir]);
    const text = r.stdout + r.stderr;
    // Not refused before the load (exit 2): run, judged, failed by the sleep's p50 and the unknown name.
    assertEquals(r.code, 1, text);
    // The failed ones only are listed: the sleep's p50 (measured) and the unknown name's (nothing).
    ok(/p50\{name:sleep\} < 20ms .*\d+\.\d+ ms/.test(text), text);
    ok(/p99\{name:nope\} < 1s .*no such endpoint/.test(text), text);
    const results = JSON.parse(await Deno.readTextFile(`${dir}/results.json`)) as ResultsFile;
    // The passed ones are listed only when the run's own verdict flags it (a busy machine's run can be
    // generator-bound), each saying so.
    const verdict = runVerdict(results.runs[0]);
    const passed = text.split("\n").filter((l) => /requests >= 40|requests\{name:sleep\}/.test(l));
    if (verdict.ok) assertEquals(passed, []);
    else ok(passed.length === 2 && passed.every((l) => l.endsWith(flaggedRunPhrase(verdict))), text);
    const judged = results.thresholds.map((t) => [t.expression, t.ok, t.unmatched ?? false]);
    assertEquals(judged, [
      ["requests >= 40", true, false],
      ["requests{name:sleep} >= 20", true, false],
      ["p50{name:sleep} < 20ms", false, false],
      ["p99{name:nope} < 1s", false, true],
    ]);
  }));

Deno.test("names loadlab keeps for rows of its own ((session), (other names), (other checks)) are refused at the line", () =>
  withTarget(async (url) => {
    // A request named (session) shared its row with the checks made before any request: one row, two
    // meanings, and nothing said.
    const run = await runAttack(parseAttackConfig({
      url,
      model: "count",
      requests: 3,
      connections: 1,
      workers: 1,
      intervalMs: 100,
      script: { path: new URL("./fixtures/scripts/reserved_names.ts", import.meta.url).pathname },
    }));
    assertEquals(run.requests, 1);
    assertEquals(Object.keys(run.errorMessages?.script ?? {}).sort(), [
      "check name (other checks) is where loadlab counts a request's checks past its cap of 100 names: give the check another name (reserved_names.ts:8)",
      "request name (other names) is where loadlab counts the requests past its cap of 200 names: give the request another name (reserved_names.ts:7)",
      "request name (session) is where loadlab counts a session's checks made before its first request: give the request another name (reserved_names.ts:6)",
    ]);
    assertEquals(run.flows?.[0].steps.map((step) => [step.label, step.checks?.length ?? 0]), [["json", 0]]);
  }));
