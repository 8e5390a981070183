/**
 * @module
 * Truth table, a crowd of fixed requests that saturates its generator: 5,000 keep-alive connections on
 * one load worker against nginx with two workers (more room than the generator's one core, on an idle
 * machine or a busy one: nginx spends about half the CPU per request loadlab does). Its timers run on
 * time (the epoll pump yields every 5 ms), so only the responses' wait says it: each one that reached the
 * kernel waits, most of the latency, for the worker to read it. The run must read `generator-bound` with
 * that wait in words, recorded per interval (`readyWaitMs`). Its twin is the same crowd shape against a
 * slow server (the built-in /sleep, 100 ms, 1,000 connections): the requests wait at the server, the worker
 * reads each answer at once, and the run is not generator-bound. Skipped with its reason where nginx is
 * missing (required under CI=true). Bounded: 3 s of load each.
 */
import assert from "node:assert/strict";
import { requireProgram, runLoadlab, withTarget, withTempDir } from "../helpers.ts";
import type { RunResult } from "../../results/mod.ts";
import { runVerdict } from "../../results/conclude/run_verdict.ts";
import { QUEUED_MIN_MS } from "../../results/conclude/generator_saturation.ts";
import { startNginx } from "../../bench/nginx.ts";

/** `attack` of `url` with `connections` on one worker for 3 s; its one run. */
async function attack(dir: string, url: string, connections: number) {
  const out = `${dir}/results-${connections}.json`;
  const r = await runLoadlab([
    "attack",
    url,
    ...["-c", `${connections}`, "-d", "3s", "-w", "1", "--timeout", "20s", "-o", out],
  ]);
  const file = JSON.parse(await Deno.readTextFile(out));
  const run: RunResult = file.runs?.[0] ?? file;
  return { ...r, run };
}

Deno.test({
  name: "truth table: a crowd of fixed requests whose worker holds the answers reads generator-bound",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    if (!requireProgram("nginx")) return;
    const nginx = await startNginx("nginx", [], undefined, false, 8192, 2);
    try {
      await withTempDir(async (dir) => {
        const r = await attack(dir, nginx.url, 5000);
        assert.equal(r.code, 0, r.stderr);
        const { label } = runVerdict(r.run);
        assert.equal(r.run.generatorBound, true, `${label}\n${r.stdout}`);
        assert.match(label, /^generator-bound: load worker saturated in \d+ of \d+ intervals/);
        assert.match(r.stdout, /a received response waited \d+ ms for it on average, the median latency/);
        // The evidence is in results.json: intervals whose answers waited for the worker past the floor.
        const waited = r.run.intervals.filter((iv) => (iv.readyWaitMs ?? 0) >= QUEUED_MIN_MS);
        assert.ok(waited.length >= 2, JSON.stringify(r.run.intervals.map((iv) => iv.readyWaitMs)));
      });
    } finally {
      await nginx.stop();
    }
  },
});

Deno.test({
  name: "truth table: a crowd held by a slow server is not generator-bound, its answers read at once",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withTarget((url) =>
      withTempDir(async (dir) => {
        const r = await attack(dir, `${url}/sleep?ms=100`, 1000);
        assert.equal(r.code, 0, r.stderr);
        const { label } = runVerdict(r.run);
        assert.equal(r.run.generatorBound, false, `${label}\n${r.stdout}`);
        assert.doesNotMatch(label, /generator-bound/);
        // Measured, and far below the latency the server sets: the answers did not wait for the worker.
        const probed = r.run.intervals.filter((iv) => iv.readyWaitMs !== undefined && iv.p50 > 0);
        assert.ok(probed.length >= 2, JSON.stringify(r.run.intervals));
        const waitedMs = probed.reduce((sum, iv) => sum + iv.readyWaitMs!, 0) / probed.length;
        const p50Ms = probed.reduce((sum, iv) => sum + iv.p50, 0) / probed.length;
        assert.ok(waitedMs < p50Ms / 2, `${waitedMs} ms of ${p50Ms} ms`);
      })
    );
  },
});
