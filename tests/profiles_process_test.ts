/**
 * CPU profiles that would show the wrong thing, with real Node processes on 127.0.0.1: a node:cluster app
 * (its primary, the process loadlab starts and profiles, only hands connections to its workers) gets a
 * profile flagged "mostly idle" in results.json, the report and the terminal; an inspector port held by
 * another process is refused, naming both pids, instead of profiling that process as the target; and a
 * profile larger than the 64 MiB Deno's WebSocket client takes in one message is taken whole.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openReport } from "./browser.ts";
import { requireProgram, runLoadlab, withTempDir } from "./helpers.ts";
import { startCpuProfiles } from "../targets/inspector.ts";
import { startTarget } from "../targets/start.ts";
import { isCpuProfile } from "../results/cpu_profile.ts";
import { freePort, waitForPort } from "../system/ports.ts";

const hasNode = requireProgram("node");

/** A cluster app: the primary forks two workers that serve (CPU-bound) and does nothing else itself. */
const CLUSTER_APP = `
const cluster = require("node:cluster");
const http = require("node:http");
if (cluster.isPrimary) {
  const workers = [cluster.fork(), cluster.fork()];
  process.on("SIGTERM", () => { for (const w of workers) w.process.kill("SIGTERM"); process.exit(0); });
} else {
  const fib = (n) => (n < 2 ? n : fib(n - 1) + fib(n - 2));
  http.createServer((req, res) => res.end(String(fib(20)))).listen(Number(process.env.PORT), "127.0.0.1");
  process.on("disconnect", () => process.exit(0));
}
`;

Deno.test({
  name:
    "a node:cluster app's idle primary: its profile is flagged mostly idle in results.json, the report and the terminal",
  ignore: !hasNode,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withTempDir(async (dir) => {
      await Deno.writeTextFile(join(dir, "cluster_app.js"), CLUSTER_APP);
      const port = freePort("127.0.0.1");
      const file = join(dir, "cluster.yaml");
      await Deno.writeTextFile(
        file,
        `name: cluster
targets:
  app:
    kind: external
    command: node
    args: [${JSON.stringify(join(dir, "cluster_app.js"))}]
    env: { PORT: "${port}" }
    url: "http://127.0.0.1:${port}"
    profile: cpu
loads:
  l: { model: connections, connections: 2, duration: 1s, requests: [/] }
warmup: 0s
`,
      );
      const out = join(dir, "out");
      const run = await runLoadlab(["run", file, "--out-dir", out]);
      assert.equal(run.code, 0, run.stderr);
      const results = JSON.parse(await Deno.readTextFile(join(out, "results.json")));
      const [profile] = results.runs[0].profiles;
      assert.ok(results.runs[0].requests > 0);
      assert.equal(profile.process, "target");
      assert.match(
        profile.warning ?? "",
        /^profile mostly idle \(\d+\.\d% of [\d.]+ s idle\): the work may run in another process \(workers\/cluster\); its 2 child processes used [\d.]+ s of CPU meanwhile$/,
      );
      // And on the terminal, under the run's line, not only "(profiled)".
      assert.ok(run.stdout.includes(`warning: CPU profile of target: ${profile.warning}`), run.stdout);
      if (!requireProgram("chromium")) return;
      const visit = await openReport(
        join(out, "report.html"),
        (page) => page.locator("#run-profiles").textContent(),
      );
      assert.deepEqual(visit.problems, []);
      assert.ok(visit.value?.includes(profile.warning), visit.value ?? "");
    });
  },
});

Deno.test({
  name: "an inspector port held by another process is refused, naming its pid and the target's",
  ignore: !hasNode,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const port = freePort("127.0.0.1");
    const squatter = new Deno.Command("node", {
      args: [`--inspect=127.0.0.1:${port}`, "-e", "setInterval(() => {}, 1000)"],
      stdout: "null",
      stderr: "null",
    }).spawn();
    const appPort = freePort("127.0.0.1");
    const fixtures = new URL("./fixtures/", import.meta.url).pathname;
    const target = await startTarget({
      kind: "external",
      command: "node",
      args: [`${fixtures}node_app.js`, "--port", String(appPort)],
      url: `http://127.0.0.1:${appPort}`,
      profile: "cpu",
    });
    try {
      assert.ok(await waitForPort("127.0.0.1", port, 10_000), "the other process's inspector listens");
      // The target's own inspector entry, but on the port the other process took.
      const [own] = target.inspected!;
      const profiling = await startCpuProfiles([{ ...own, port }]);
      const [taken] = await profiling.stop();
      assert.ok("error" in taken, JSON.stringify(taken).slice(0, 200));
      assert.match(
        taken.error,
        new RegExp(
          `belongs to process ${squatter.pid}, not to the target's process ${own.pid}.*not profiled`,
        ),
      );
      // Its own port is still profiled.
      const [mine] = await (await startCpuProfiles([own])).stop();
      assert.ok("profile" in mine && mine.runtime === "node", JSON.stringify(mine).slice(0, 200));
    } finally {
      await target.stop();
      squatter.kill("SIGKILL");
      await squatter.status;
    }
  },
});

/**
 * An app whose profile passes 64 MiB: 100 callers each spin 10 ms at the bottom of a 200-frame recursion
 * (V8 keeps at most 255 frames of a sample, so the caller stays on each stack) of a function with a 4 KiB
 * name in a script with a 1 KiB sourceURL (V8's longest), so each caller sampled adds 200 nodes of ~5 KiB:
 * ~100 MB of JSON. Each spins 10 ms of its own CPU time, not of the clock's, so a busy machine that
 * takes the core away mid-spin still sees every caller sampled.
 */
const BIG_PROFILE_APP = `
const d = "down_" + "x".repeat(4096);
let src = "function " + d + "(n, ms) { if (n > 0) return " + d + "(n - 1, ms) + 1; " +
  "const end = process.cpuUsage().user + ms * 1000; let x = 0; " +
  "while (process.cpuUsage().user < end) x++; return x; }\\n";
for (let k = 0; k < 100; k++) src += "globalThis.g" + k + " = function g" + k + "() { return " + d + "(200, 10); };\\n";
eval(src + "//# sourceURL=big/" + "x".repeat(1100) + ".js");
require("node:http").createServer((req, res) => {
  for (let k = 0; k < 100; k++) globalThis["g" + k]();
  res.end("ok");
}).listen(Number(process.env.PORT), "127.0.0.1");
`;

Deno.test({
  name: "a profile over 64 MiB (past Deno's WebSocket client) is taken whole",
  ignore: !hasNode,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withTempDir(async (dir) => {
      await Deno.writeTextFile(join(dir, "big_profile_app.js"), BIG_PROFILE_APP);
      const port = freePort("127.0.0.1");
      const target = await startTarget({
        kind: "external",
        command: "node",
        args: [join(dir, "big_profile_app.js")],
        env: { PORT: String(port) },
        url: `http://127.0.0.1:${port}`,
        profile: "cpu",
      });
      try {
        const profiling = await startCpuProfiles(target.inspected!);
        await (await fetch(`${target.url}/`)).arrayBuffer();
        const [taken] = await profiling.stop();
        assert.ok("profile" in taken && isCpuProfile(taken.profile), JSON.stringify(taken).slice(0, 300));
        const mib = JSON.stringify(taken.profile).length / 1024 / 1024;
        assert.ok(mib > 64, `the profile is ${mib.toFixed(1)} MiB`);
      } finally {
        await target.stop();
      }
    });
  },
});
