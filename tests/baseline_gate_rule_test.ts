/**
 * @module
 * The `--baseline` gate concludes by the analysis's noise rule, end to end with real runs of the built-in
 * target, whose `/sleep?ms=` answers after the time asked (a slower build is the same experiment with a
 * longer sleep, `--set`). Where that rule does not judge, a `--fail-on` rule must not pass: a load that
 * ramps its rate within the run gives one-second batches that differ by the load, and two repeats a side
 * that disagree with each other cannot call a wide gap noise; both exit 8 with the rule's own reason
 * instead of reading `same` and passing. Loads are short (3 s a run at most 80 req/s, or 1.5 s on at most
 * 4 connections, all on 127.0.0.1); only where a verdict comes from is asserted, never a speed.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import type { ResultsFile } from "../results/mod.ts";
import { runLoadlab, withTempDir } from "./helpers.ts";

const RAMP = `
name: gate-ramp
targets:
  app: { kind: builtin }
loads:
  ramp: { model: rate, rate: 20, rampTo: 80, duration: 3s, requests: ["/sleep?ms=10"] }
warmup: 0s
interval: 250ms
`;

Deno.test("a ramping load on both sides: a 3x slower build is not judged (exit 8), never passed", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/exp.yaml`, RAMP);
    const base = await runLoadlab(["run", `${dir}/exp.yaml`, "--out-dir", `${dir}/base`]);
    assertEquals(base.code, 0, base.stdout + base.stderr);
    const slow = await runLoadlab([
      "run",
      `${dir}/exp.yaml`,
      "--out-dir",
      `${dir}/slow`,
      "--set",
      `loads.ramp.requests=["/sleep?ms=30"]`,
      "--baseline",
      `${dir}/base`,
      "--fail-on",
      "p99 +10%",
    ]);
    assertEquals(slow.code, 8, slow.stdout + slow.stderr);
    // On a busy machine the open model's runs may be generator-bound: not judged for that, first.
    if (/every paired run is flagged \(.*\): untrusted numbers pass no rule/.test(slow.stdout)) return;
    const ramp =
      "the load ramp changes its rate within the run, so its intervals differ by the load, not by noise";
    assert(
      new RegExp(
        `p99 .*no verdict: [\\d.]+ → [\\d.]+ ms, \\+\\d+\\.\\d% \\(geometric mean of the batch means of interval p99s; not judged: ${ramp};`,
      ).test(slow.stdout),
      slow.stdout,
    );
    assert(
      slow.stdout.includes(`"p99 +10%" checked no run: no trusted pair has a verdict on p99: ${ramp}`),
      slow.stdout,
    );
  });
});

const STEADY = `
name: gate-repeats
targets:
  app: { kind: builtin }
loads:
  steady: { model: connections, connections: 4, duration: 1500ms, requests: ["/sleep?ms=10"] }
repeats: 2
interval: 100ms
`;

const sleepMs = (ms: number) => ["--set", `loads.steady.requests=["/sleep?ms=${ms}"]`];

Deno.test("two repeats a side that cannot resolve a 4x gap: not judged (exit 8), never 'same'", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/exp.yaml`, STEADY);
    const run = (out: string, ms: number, extra: string[] = []) =>
      runLoadlab(["run", `${dir}/exp.yaml`, "--out-dir", `${dir}/${out}`, ...sleepMs(ms), ...extra]);
    // A baseline whose two repeats disagree (a noisy machine): its first repeat from a 10 ms build,
    // its second from a 20 ms one, both real runs.
    for (const [out, ms] of [["fast", 10], ["slower", 20]] as const) {
      const r = await run(out, ms);
      assertEquals(r.code, 0, r.stdout + r.stderr);
    }
    const read = async (out: string): Promise<ResultsFile> =>
      JSON.parse(await Deno.readTextFile(`${dir}/${out}/results.json`));
    const [fast, slower] = [await read("fast"), await read("slower")];
    const repeat = (file: ResultsFile, n: number) => file.runs.find((r) => r.name === `app/steady#${n}`)!;
    const mixed = { ...fast, runs: [repeat(fast, 1), repeat(slower, 2)] };
    await Deno.writeTextFile(`${dir}/mixed.json`, JSON.stringify(mixed));

    // Three to six times the baseline's p50: on the log scale that is several standard errors, which
    // two repeats a side cannot call noise, nor resolve (Welch with one degree of freedom).
    const slow = await run("slow", 60, ["--baseline", `${dir}/mixed.json`, "--fail-on", "p50 +10%"]);
    assertEquals(slow.code, 8, slow.stdout + slow.stderr);
    assert(
      /p50 .*no verdict: [\d.]+ → [\d.]+ ms, \+\d+\.\d% \(geometric mean of the repeats' p50s; not judged: by Welch's t-test over repeats, [\d.]+ standard errors apart, 2 repeats each: beyond noise needs 5; Welch over 2\+2 repeats\)/
        .test(slow.stdout),
      slow.stdout,
    );
    assert(!/p50 .*same \(within noise\)/.test(slow.stdout), slow.stdout);
  });
});
