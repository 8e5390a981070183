/**
 * @module
 * An external target whose command is a wrapper that forks the real server (`sh -c "node app.js; echo
 * done"`, the shape of `npm start`): `loadlab run` must finish and leave nothing behind, one SIGINT must
 * stop it, and a `kill -9` of loadlab must take the grandchild with it even when that one ignores
 * SIGTERM. Leftovers are found by this test's own `LOADLAB_RUN_ID` mark. Needs node (skipped with the
 * reason when it is missing; CI=true runs it). Linux only: the guarantees rest on process groups and
 * /proc.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { freePort } from "../system/ports.ts";
import { sleep, spawnRun } from "./fault_drill_helpers.ts";
import { requireProgram } from "./helpers.ts";
import { describeProcesses, markedProcesses, waitUntilGone } from "./marked_processes.ts";

const APP = new URL("./fixtures/node_app.js", import.meta.url).pathname;
const ignore = Deno.build.os !== "linux" || !requireProgram("node");

function experiment(port: number, appFlags: string, duration: string): string {
  return JSON.stringify({
    name: "forking",
    targets: {
      wrapped: {
        kind: "external",
        command: "sh",
        args: ["-c", `node ${APP} --port ${port} ${appFlags}; echo done`],
        url: `http://127.0.0.1:${port}`,
        ready: { path: "/health", timeoutMs: 20_000 },
      },
    },
    requests: ["/x"],
    loads: { steady: { model: "rate", rate: 20, duration } },
  });
}

/** Resolves to the output, or to null when `withinMs` passes first (then the run is SIGKILLed). */
async function outputWithin(run: ReturnType<typeof spawnRun>, withinMs: number) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const result = await Promise.race([
    run.output,
    new Promise<null>((r) => timer = setTimeout(() => r(null), withinMs)),
  ]);
  clearTimeout(timer);
  if (result === null) {
    try {
      run.child.kill("SIGKILL");
    } catch { /* ended meanwhile */ }
    await run.output;
  }
  return result;
}

async function untilAppUp(runId: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (markedProcesses(runId).some((p) => p.command.startsWith("node "))) {
      await sleep(500); // the load has started by now, or is about to
      return;
    }
    await sleep(100);
  }
  throw new Error("the wrapped node app never started");
}

/** Runs `fn` in a temp dir with a fresh mark; whatever the mark still finds afterwards is killed. */
async function withRun(
  port: number,
  flags: string,
  duration: string,
  fn: (dir: string, runId: string) => Promise<void>,
) {
  const dir = await Deno.makeTempDir({ prefix: "loadlab-test-" });
  const runId = `forking-${crypto.randomUUID()}`;
  await Deno.writeTextFile(`${dir}/exp.json`, experiment(port, flags, duration));
  try {
    await fn(dir, runId);
  } finally {
    for (const p of markedProcesses(runId)) {
      try {
        Deno.kill(p.pid, "SIGKILL"); // only on failure: this test's own leftovers, by its own mark
      } catch { /* gone */ }
    }
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test({
  name: "forking external target: run finishes, results complete, the grandchild is gone",
  ignore,
  async fn() {
    await withRun(freePort(), "", "1s", async (dir, runId) => {
      const out = await outputWithin(spawnRun(dir, runId), 90_000);
      assert(out !== null, "run hung after its load (waiting on a pipe the grandchild holds)");
      assertEquals(out.code, 0, out.text);
      const results = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`));
      assertEquals(results.complete, true);
      const left = await waitUntilGone(runId, 5_000);
      assert(left.length === 0, `left running after run:\n${describeProcesses(left)}`);
    });
  },
});

Deno.test({
  name: "forking external target that ignores SIGTERM: one SIGINT stops run, nothing is left",
  ignore,
  async fn() {
    await withRun(freePort(), "--ignore-sigterm", "60s", async (dir, runId) => {
      const run = spawnRun(dir, runId);
      await untilAppUp(runId);
      run.child.kill("SIGINT");
      const out = await outputWithin(run, 30_000);
      assert(out !== null, "one SIGINT did not stop run");
      assertEquals(out.code, 130, out.text);
      const left = await waitUntilGone(runId, 5_000);
      assert(left.length === 0, `left running after SIGINT:\n${describeProcesses(left)}`);
    });
  },
});

Deno.test({
  name: "forking external target that ignores SIGTERM: kill -9 of run takes the grandchild along",
  ignore,
  async fn() {
    await withRun(freePort(), "--ignore-sigterm", "60s", async (dir, runId) => {
      const run = spawnRun(dir, runId);
      await untilAppUp(runId);
      run.child.kill("SIGKILL");
      await run.output;
      const left = await waitUntilGone(runId, 5_000);
      assert(left.length === 0, `left running after kill -9 of run:\n${describeProcesses(left)}`);
    });
  },
});
