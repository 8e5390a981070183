/**
 * @module
 * `abortOnFail` end to end against the real built-in target: `/sleep?ms=60` answers in about 60 ms, so
 * `p99<20ms` fails from the first interval. The run stops early (about its `delayAbortEval` after the
 * warm-up, far before its 20 s), is marked aborted with its time and rule, the runs after it are not
 * run and are listed, and the exit code is the thresholds' 1 (with `--strict` too). A threshold that
 * holds never stops a run, nor does one scoped to another run, nor one that fails only at the planned
 * end. `run --abort-on-fail` gives every threshold of the file abortOnFail, k6's `threshold:` key
 * included. Bounded: at most 2 connections on 127.0.0.1, a stop that does not fire ends with the 20 s
 * run; only "well before the end" is asserted, never a speed.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { startTarget } from "../targets/start.ts";
import { runLoadlab, withTempDir } from "./helpers.ts";

const experiment = (threshold: string, slowDuration: string) => `
name: abort
targets:
  app: { kind: builtin }
loads:
  slow: { model: connections, connections: 2, duration: ${slowDuration}, requests: ["/sleep?ms=60"] }
  after: { model: connections, connections: 1, duration: 500ms, requests: ["/json"] }
order: sequential
thresholds:
  - { expr: "${threshold}", load: slow, abortOnFail: true, delayAbortEval: 1500ms }
  - "success>=99%"
`;

async function readResults(path: string) {
  return JSON.parse(await Deno.readTextFile(path));
}

Deno.test("run: a failing abortOnFail threshold stops the run after its delay and the experiment with it", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/exp.yaml`, experiment("p99<20ms", "20s"));
    const out = await runLoadlab(
      ["run", `${dir}/exp.yaml`, "--out-dir", `${dir}/out`, "--strict", "--summary", `${dir}/summary.md`],
    );
    assertEquals(out.code, 1, out.stdout + out.stderr);
    assert(
      /stopped: run app\/slow aborted at \d+\.\ds by p99<20ms \(abortOnFail\); 1 planned run not run: app\/after/
        .test(out.stdout),
      out.stdout,
    );
    const results = await readResults(`${dir}/out/results.json`);
    assertEquals(results.runs.map((r: { name: string }) => r.name), ["app/slow"]);
    assertEquals(results.notRun, ["app/after"]);
    assertEquals(results.complete, false);
    const [run] = results.runs;
    assertEquals(run.incomplete, true);
    assertEquals(run.abortedBy.threshold, "p99<20ms");
    assert(run.abortedBy.atSec >= 1.5, `not before delayAbortEval: ${run.abortedBy.atSec}`);
    assert(run.durationSec < 12, `stopped well before its 20 s: ${run.durationSec}`);
    assert(run.requests > 0, "what was measured is kept");
    assertEquals(run.unfinished ?? 0, 0, "in-flight requests finished in the graceful stop");
    const failed = results.thresholds.filter((t: { ok: boolean }) => !t.ok);
    assertEquals(failed.map((t: { expression: string }) => t.expression), ["p99<20ms"]);
    const md = await Deno.readTextFile(`${dir}/summary.md`);
    assert(/1 run — stopped: run app\/slow aborted at \d+\.\ds by p99<20ms/.test(md), md);
    assert(/app\/slow .*aborted at \d+\.\ds by p99<20ms/.test(md), "the run's row carries the qualifier");
  });
});

Deno.test("run: an abortOnFail threshold that holds never stops anything", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/exp.yaml`, experiment("p99<5s", "2500ms"));
    const out = await runLoadlab(["run", `${dir}/exp.yaml`, "--out-dir", `${dir}/out`]);
    assertEquals(out.code, 0, out.stdout + out.stderr);
    const results = await readResults(`${dir}/out/results.json`);
    assertEquals(results.runs.map((r: { name: string }) => r.name), ["app/slow", "app/after"]);
    assertEquals(results.complete, true);
    assertEquals(results.notRun, undefined);
    assertEquals(results.runs[0].abortedBy, undefined);
    assert(results.runs[0].durationSec >= 2.4, `ran to its end: ${results.runs[0].durationSec}`);
  });
});

Deno.test("attack --abort-on-fail: a window threshold stops the load after --delay-abort-eval", async () => {
  const target = await startTarget({ kind: "builtin" });
  try {
    await withTempDir(async (dir) => {
      const out = await runLoadlab([
        "attack",
        `${target.url}/sleep?ms=60`,
        "-c",
        "2",
        "-d",
        "20s",
        "--threshold",
        "p99<20ms over 1s",
        "--threshold",
        "success>=99%",
        "--abort-on-fail",
        "--delay-abort-eval",
        "2s",
        "--no-live",
        "-o",
        `${dir}/results.json`,
      ]);
      assertEquals(out.code, 1, out.stdout + out.stderr);
      assert(/Verdict: aborted at \d+\.\ds by p99<20ms over 1s/.test(out.stdout), out.stdout);
      assert(out.stdout.includes("FAIL  p99<20ms over 1s"), out.stdout);
      const { runs: [run] } = await readResults(`${dir}/results.json`);
      assert(run.abortedBy.atSec >= 2, `not before --delay-abort-eval: ${run.abortedBy.atSec}`);
      assert(run.durationSec < 12, `stopped well before its 20 s: ${run.durationSec}`);
    });
  } finally {
    await target.stop();
  }
});

Deno.test("attack: --abort-on-fail without a --threshold, --delay-abort-eval alone: exit 2 before any load", async () => {
  const url = "http://127.0.0.1:9/";
  const alone = await runLoadlab(["attack", url, "--abort-on-fail"]);
  assertEquals(alone.code, 2, alone.stderr);
  assert(alone.stderr.includes("--abort-on-fail stops the run when a --threshold fails"), alone.stderr);
  const delay = await runLoadlab(["attack", url, "--threshold", "p99<1s", "--delay-abort-eval", "5s"]);
  assertEquals(delay.code, 2, delay.stderr);
  assert(delay.stderr.includes("--delay-abort-eval needs --abort-on-fail"), delay.stderr);
});

Deno.test("run --abort-on-fail: every threshold of the file stops its run, k6's threshold: key too", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(
      `${dir}/exp.yaml`,
      `
name: abortflag
targets:
  app: { kind: builtin }
loads:
  slow: { model: connections, connections: 2, duration: 20s, requests: ["/sleep?ms=60"] }
  after: { model: connections, connections: 1, duration: 500ms, requests: ["/json"] }
order: sequential
thresholds:
  - { threshold: "p99<20ms", load: slow }
`,
    );
    const out = await runLoadlab(
      [
        "run",
        `${dir}/exp.yaml`,
        "--out-dir",
        `${dir}/out`,
        "--abort-on-fail",
        "--delay-abort-eval",
        "1500ms",
      ],
    );
    assertEquals(out.code, 1, out.stdout + out.stderr);
    const results = await readResults(`${dir}/out/results.json`);
    assertEquals(results.notRun, ["app/after"]);
    const [run] = results.runs;
    assertEquals(run.abortedBy.threshold, "p99<20ms");
    assert(run.abortedBy.atSec >= 1.5, `not before --delay-abort-eval: ${run.abortedBy.atSec}`);
    assert(run.durationSec < 12, `stopped well before its 20 s: ${run.durationSec}`);
  });
});

Deno.test("run --abort-on-fail on a file without thresholds, or with --segment: exit 2 before any load", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(
      `${dir}/exp.yaml`,
      "name: none\ntargets:\n  app: { url: http://127.0.0.1:9 }\nloads:\n  one: { model: count, requests: 1 }\n",
    );
    const none = await runLoadlab(["run", `${dir}/exp.yaml`, "--out-dir", `${dir}/out`, "--abort-on-fail"]);
    assertEquals(none.code, 2, none.stderr);
    assert(none.stderr.includes("has none; add one to the file"), none.stderr);
    const shard = await runLoadlab(["run", `${dir}/exp.yaml`, "--abort-on-fail", "--segment", "0/2"]);
    assertEquals(shard.code, 2, shard.stderr);
    assert(shard.stderr.includes("a --segment runs part of it"), shard.stderr);
    const delay = await runLoadlab(["run", `${dir}/exp.yaml`, "--delay-abort-eval", "1s"]);
    assertEquals(delay.code, 2, delay.stderr);
    assert(delay.stderr.includes("--delay-abort-eval needs --abort-on-fail"), delay.stderr);
    const both = `${dir}/both.yaml`;
    await Deno.writeTextFile(
      both,
      (await Deno.readTextFile(`${dir}/exp.yaml`)) +
        'thresholds: [{ expr: "p99<1s", threshold: "p99<2s" }]\n',
    );
    const twice = await runLoadlab(["run", both, "--out-dir", `${dir}/out`]);
    assertEquals(twice.code, 2, twice.stderr);
    assert(twice.stderr.includes("thresholds[0].threshold: give expr or threshold"), twice.stderr);
    assert(!(await exists(`${dir}/out/results.json`)), "no load, no results");
  });
});

Deno.test("abortOnFail scoped to another run by name stops that run only; this one runs its length", async () => {
  await withTempDir(async (dir) => {
    // Both loads answer in about 60 ms, so p99<20ms fails on either; the rule names app/after only.
    await Deno.writeTextFile(
      `${dir}/exp.yaml`,
      `
name: scoped
targets:
  app: { kind: builtin }
loads:
  slow: { model: connections, connections: 2, duration: 2500ms, requests: ["/sleep?ms=60"] }
  after: { model: connections, connections: 1, duration: 20s, requests: ["/sleep?ms=60"] }
order: sequential
thresholds:
  - { expr: "app/after:p99<20ms", abortOnFail: true, delayAbortEval: 1s }
`,
    );
    const out = await runLoadlab(["run", `${dir}/exp.yaml`, "--out-dir", `${dir}/out`]);
    assertEquals(out.code, 1, out.stdout + out.stderr);
    const results = await readResults(`${dir}/out/results.json`);
    const [slow, after] = results.runs;
    assertEquals(slow.name, "app/slow");
    assertEquals(slow.abortedBy, undefined, "not this run's rule");
    assert(slow.durationSec >= 2.4, `ran to its end: ${slow.durationSec}`);
    assertEquals(after.abortedBy?.threshold, "app/after:p99<20ms");
    assert(after.durationSec < 12, `the run it names stopped well before its 20 s: ${after.durationSec}`);
  });
});

Deno.test("abortOnFail failing only at the planned end stops nothing; the threshold fails after the run", async () => {
  await withTempDir(async (dir) => {
    // The delay is the whole run: the rule is first judged on the last interval, as the load ends.
    await Deno.writeTextFile(
      `${dir}/exp.yaml`,
      `
name: atend
targets:
  app: { kind: builtin }
loads:
  slow: { model: connections, connections: 2, duration: 2s, requests: ["/sleep?ms=60"] }
  after: { model: connections, connections: 1, duration: 500ms, requests: ["/json"] }
order: sequential
interval: 500ms
thresholds:
  - { expr: "p99<20ms", load: slow, abortOnFail: true, delayAbortEval: 2s }
`,
    );
    const out = await runLoadlab(["run", `${dir}/exp.yaml`, "--out-dir", `${dir}/out`]);
    assertEquals(out.code, 1, out.stdout + out.stderr);
    const results = await readResults(`${dir}/out/results.json`);
    assertEquals(results.runs.map((r: { name: string }) => r.name), ["app/slow", "app/after"]);
    assertEquals(results.complete, true);
    assertEquals(results.notRun, undefined);
    assertEquals(results.runs[0].abortedBy, undefined);
    assertEquals(results.runs[0].incomplete, undefined);
    const failed = results.thresholds.filter((t: { ok: boolean }) => !t.ok);
    assertEquals(failed.map((t: { run: string }) => t.run), ["app/slow"]);
  });
});

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}
