/**
 * @module
 * Truth table, a closed run whose generator is its queue: session scripts on one worker, each burning
 * 10 ms of CPU after every answer, 20 sessions: 200 ms of the worker's CPU per round of requests while the
 * target answers in microseconds, so an answer always waits for the worker, not for the target, on an idle
 * machine and more on a busy one. A closed run has no late sends, so the worker's thread says it: it
 * must read `generator-bound` with its evidence (the load worker saturated, its timers a round late, in
 * most intervals, recorded per interval in results.json), exit 0 and 6 under `--strict`. Beside it the same
 * target paced (2 sessions, a 20 ms think time): the worker mostly sleeps and the run is `ok`, its evidence
 * recorded too. Bounded: 1.5 s of load each.
 */
import assert from "node:assert/strict";
import { withTempDir } from "../helpers.ts";
import type { RunResult } from "../../results/mod.ts";
import { runScript, sessionScript, withFastServer } from "./script_run.ts";
import { runVerdict } from "../../results/conclude/run_verdict.ts";
import { LATE_LOOP_MS, SATURATED_PCT } from "../../results/conclude/generator_saturation.ts";

/** The worker ran or waited for a core nearly all the interval, its timers late: its own queue. */
const saturated = (iv: RunResult["intervals"][number]) =>
  (iv.generatorBusyPct ?? 0) + (iv.generatorWaitPct ?? 0) >= SATURATED_PCT &&
  (iv.loopLagMs ?? 0) >= LATE_LOOP_MS;

Deno.test({
  name: "truth table: a closed run whose load worker is saturated reads generator-bound with its evidence",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withFastServer((url) =>
      withTempDir(async (dir) => {
        const load = `{ model: "connections", connections: 20, duration: "1500ms", workers: 1 }`;
        const text = sessionScript(url, load, 10, 0);
        const r = await runScript(dir, "burn", text);
        assert.equal(r.code, 0, r.stderr);
        const { label } = runVerdict(r.run);
        assert.equal(r.run.generatorBound, true, label);
        assert.equal(r.run.serverBound, false, label);
        assert.match(label, /^generator-bound: load worker saturated in \d+ of \d+ intervals/);
        assert.match(r.stdout, /\[generator-bound: load worker saturated in \d+ of \d+ intervals/, r.stdout);
        // The evidence is in results.json: most intervals show a worker that ran or waited for a core.
        const judged = r.run.intervals.filter((iv) => iv.generatorBusyPct !== undefined);
        assert.ok(judged.length >= 2, JSON.stringify(r.run.intervals));
        assert.ok(judged.filter(saturated).length * 2 > judged.length, JSON.stringify(judged));
        const strict = await runScript(dir, "burn", text, true);
        assert.equal(strict.code, 6, strict.stderr);
        assert.match(strict.stderr, /--strict: run .* is flagged: generator-bound/);
      })
    );
  },
});

Deno.test({
  name: "truth table: a paced closed run whose load worker mostly sleeps is ok, its evidence recorded",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withFastServer((url) =>
      withTempDir(async (dir) => {
        const load = `{ model: "connections", connections: 2, duration: "1500ms", workers: 1 }`;
        const r = await runScript(dir, "paced", sessionScript(url, load, 0, 20));
        assert.equal(r.code, 0, r.stderr);
        const { label } = runVerdict(r.run);
        assert.equal(label, "ok");
        assert.equal(r.run.generatorBound, false);
        const judged = r.run.intervals.filter((iv) => iv.generatorBusyPct !== undefined);
        assert.ok(judged.length >= 2, JSON.stringify(r.run.intervals));
        assert.ok(judged.some((iv) => !saturated(iv)), JSON.stringify(judged));
      })
    );
  },
});
