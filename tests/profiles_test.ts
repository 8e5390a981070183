/**
 * CPU profiles end to end (`profile: cpu`, `--profile`): the built-in target and the Express example (under
 * Node) each driven on `/fib/25` for a bounded run produce a `.cpuprofile` beside results.json that parses
 * as one and whose top function by self time is `fib`; report.html draws the flame graph, the top table and
 * the diff in chromium without a console error; `profile: cpu` on an external command that is neither
 * node nor deno is exit 2 naming the target, before anything starts; and external `node` (even one that
 * ignores SIGTERM, where `--cpu-prof` would write nothing) and `deno run` commands are profiled.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { isCpuProfile, summarizeProfile } from "../results/cpu_profile.ts";
import { openReport } from "./browser.ts";
import { requireProgram, runLoadlab, withTempDir } from "./helpers.ts";
import { startCpuProfiles } from "../targets/inspector.ts";
import { startTarget } from "../targets/start.ts";
import type { TargetSpec } from "../targets/spec.ts";
import { freePort } from "../system/ports.ts";
import { testPool } from "./fixtures/test_pool.ts";

const hasNode = requireProgram("node");
const hasExpress = (() => {
  try {
    return Deno.statSync(new URL("../examples/node_modules/express/package.json", import.meta.url)).isFile;
  } catch {
    if (Deno.env.get("CI") === "true") throw new Error("examples/node_modules is required on CI");
    console.log("skipped: run 'npm install --prefix examples' for the Express profile");
    return false;
  }
})();

/** Two variants on /fib/25, 2 s each at 4 connections: bounded in time and in load. */
const EXPERIMENT = (express: boolean) => `
name: profiles
targets:
  builtin: { kind: builtin }
${express ? "  express: { kind: example, app: express, runtime: node }\n" : ""}loads:
  fib: { model: connections, connections: 4, duration: 2s, requests: [/fib/25] }
warmup: 0s
`;

/** The JavaScript function (not a V8 entry like "(garbage collector)") with the most self time. */
function topJsFunction(file: string): string {
  const profile = JSON.parse(Deno.readTextFileSync(file));
  assert.ok(isCpuProfile(profile), `${file} is a .cpuprofile (nodes, samples, timeDeltas)`);
  const s = summarizeProfile(profile);
  const js = s.top.filter((t) => !s.frames[t.frame].name.startsWith("("));
  js.sort((a, b) => b.selfUs - a.selfUs);
  return s.frames[js[0].frame].name;
}

/** Cases at once: each waits on its target processes, its `loadlab run` and the browser. */
const pool = testPool(4);

pool.test(
  "--profile: /fib/25's top function is fib on the built-in target and Express; the report draws it",
  async () => {
    const express = hasNode && hasExpress;
    await withTempDir(async (dir) => {
      const file = join(dir, "profiles.yaml");
      await Deno.writeTextFile(file, EXPERIMENT(express));
      const out = join(dir, "out");
      const run = await runLoadlab(["run", file, "--profile", "--out-dir", out]);
      assert.equal(run.code, 0, run.stderr);
      const results = JSON.parse(await Deno.readTextFile(join(out, "results.json")));
      assert.equal(results.runs.length, express ? 2 : 1);
      for (const r of results.runs) {
        assert.equal(r.profiles.length, 1, `${r.name} has one profile`);
        const [p] = r.profiles;
        assert.equal(p.process, "target");
        assert.match(p.file, /^profiles\/.+\.cpuprofile$/);
        assert.equal(topJsFunction(join(out, p.file)), "fib", `${r.name}: fib has the most self time`);
        assert.ok(JSON.stringify(p.summary).length < 40_000, "the summary kept in results.json is bounded");
      }
      const visit = await openReport(join(out, "report.html"), async (page) => {
        const frames = await page.locator("#run-profiles svg.flame g.frame").count();
        const top = await page.locator("#run-profiles table.profile-top tbody tr").count();
        const label = await page.locator("#overview").textContent();
        const diffRows = await page.locator("#profile-diff tbody tr").count();
        // Zooming into a frame redraws the graph without an error.
        await page.locator("#run-profiles svg.flame g.frame").nth(1).click();
        const zoomed = await page.locator("#run-profiles svg.flame g.frame").count();
        return { frames, top, label, diffRows, zoomed };
      });
      assert.deepEqual(visit.problems, []);
      assert.ok(visit.value.frames > 2, `flame graph frames: ${visit.value.frames}`);
      assert.ok(visit.value.top > 0);
      assert.ok(visit.value.diffRows > 0);
      assert.ok(visit.value.zoomed > 0);
      assert.match(visit.value.label ?? "", /\(profiled\)/);
    });
  },
  { ignore: !requireProgram("chromium") },
);

pool.test("profile: cpu on an external command that is not node or deno is exit 2 naming the target", async () => {
  await withTempDir(async (dir) => {
    const file = join(dir, "bad.yaml");
    await Deno.writeTextFile(
      file,
      `name: bad
targets:
  mine: { kind: external, command: sh, args: ["-c", "sleep 60"], url: "http://127.0.0.1:9", profile: cpu }
loads:
  l: { model: connections, connections: 1, duration: 1s, requests: [/] }
`,
    );
    const run = await runLoadlab(["run", file, "--out-dir", join(dir, "out")]);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /targets\.mine\.profile/);
    assert.match(run.stderr, /node or deno/);
  });
});

pool.test(
  "external node (ignoring SIGTERM) and deno run commands are profiled through the inspector",
  async () => {
    const fixtures = new URL("./fixtures/", import.meta.url).pathname;
    const nodePort = freePort("127.0.0.1"), denoPort = freePort("127.0.0.1");
    const specs: TargetSpec[] = [
      {
        kind: "external",
        command: "node",
        args: [`${fixtures}node_app.js`, "--port", String(nodePort), "--ignore-sigterm"],
        url: `http://127.0.0.1:${nodePort}`,
        profile: "cpu",
      },
      {
        kind: "external",
        command: Deno.execPath(),
        args: ["run", "-A", `${fixtures}plain_server.ts`, String(denoPort)],
        url: `http://127.0.0.1:${denoPort}`,
        profile: "cpu",
      },
    ];
    for (const spec of specs) {
      const target = await startTarget(spec);
      try {
        assert.equal(target.inspected?.length, 1);
        const profiling = await startCpuProfiles(target.inspected!);
        for (let i = 0; i < 200; i++) await (await fetch(target.url + "/")).arrayBuffer(); // bounded
        const [taken] = await profiling.stop();
        assert.ok("profile" in taken && isCpuProfile(taken.profile), JSON.stringify(taken).slice(0, 200));
        const s = summarizeProfile(taken.profile);
        assert.ok(s.samples > 0 && s.durationUs > 0, `${spec.kind} ${(spec as { command: string }).command}`);
      } finally {
        await target.stop();
      }
    }
  },
  { ignore: !hasNode },
);

pool.test(
  "a target process that dies while profiled yields the reason at once, not after a timeout",
  async () => {
    const target = await startTarget({ kind: "builtin", profile: "cpu" });
    try {
      const profiling = await startCpuProfiles(target.inspected!);
      Deno.kill(target.processes[0].pid, "SIGKILL");
      await target.stop(); // waits until the process is gone
      const started = performance.now();
      const [taken] = await profiling.stop();
      assert.ok("error" in taken, JSON.stringify(taken).slice(0, 200));
      assert.ok(performance.now() - started < 10_000, "no 30 s wait for an answer that cannot come");
    } finally {
      await target.stop();
    }
  },
);
