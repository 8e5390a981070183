/**
 * @module
 * `kill -9` of `loadlab serve` leaves nothing behind: the serve runs a Redis caching proxy (which starts
 * its own redis-server) in front of an upstream in this test, under a mark of its own
 * (`LOADLAB_RUN_ID`, inherited by everything it starts); after a real SIGKILL of serve, every marked
 * process must be gone within a few seconds: the target child by its stdin closing, redis-server by
 * its parent-death signal (targets/process.ts). The same for `kill -9` of `loadlab run` in the middle of
 * an experiment whose proxy target starts redis-server and a built-in upstream. Without the parent-death
 * signal both fail, naming redis-server re-parented to init. Needs redis-server (skipped with the reason
 * when it is missing; CI=true runs it).
 */
import { ok as assert } from "node:assert/strict";
import { requireProgram } from "./helpers.ts";
import { describeProcesses, markedProcesses, waitUntilGone } from "./marked_processes.ts";

Deno.test({
  name: "kill -9 of loadlab serve (Redis caching proxy) leaves no process behind, redis-server included",
  ignore: Deno.build.os !== "linux" || !requireProgram("redis-server"),
  async fn() {
    const upstream = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("ok"));
    const runId = `serve-kill-${crypto.randomUUID()}`;
    const serve = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        new URL("../main.ts", import.meta.url).pathname,
        "serve",
        "--proxy",
        `http://127.0.0.1:${upstream.addr.port}`,
        "--redis-cache-ttl",
        "5",
      ],
      stdout: "piped",
      stderr: "piped",
      env: { LOADLAB_RUN_ID: runId, NO_COLOR: "1" },
    }).spawn();
    try {
      const started = await firstLine(serve.stdout, 30_000);
      assert(started.startsWith("loadlab serve: listening on"), started);
      const before = markedProcesses(runId);
      assert(before.some((p) => p.command.includes("redis-server")), describeProcesses(before));
      assert(before.length >= 3, `serve, its target and redis-server:\n${describeProcesses(before)}`);
      serve.kill("SIGKILL");
      await serve.status;
      const left = await waitUntilGone(runId, 5_000);
      assert(left.length === 0, `left running after kill -9 of serve:\n${describeProcesses(left)}`);
    } finally {
      try {
        serve.kill("SIGKILL");
      } catch { /* dead already */ }
      await serve.stderr.cancel().catch(() => {});
      for (const p of markedProcesses(runId)) {
        try {
          Deno.kill(p.pid, "SIGKILL"); // only on failure: this test's own leftovers, by its own mark
        } catch { /* gone */ }
      }
      await upstream.shutdown();
    }
  },
});

/** The first line of a stream (then stops reading, so the pipe may fill: serve prints little). */
async function firstLine(
  stream: ReadableStream<Uint8Array<ArrayBuffer>>,
  timeoutMs: number,
): Promise<string> {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  const timer = setTimeout(() => reader.cancel(), timeoutMs);
  try {
    while (!text.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
  } finally {
    clearTimeout(timer);
    reader.releaseLock();
  }
  return text.split("\n")[0];
}

Deno.test({
  name:
    "kill -9 of loadlab run mid-experiment (proxy + built-in upstream + redis-server) leaves nothing behind",
  ignore: Deno.build.os !== "linux" || !requireProgram("redis-server"),
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "loadlab-test-" });
    const runId = `run-kill-${crypto.randomUUID()}`;
    await Deno.writeTextFile(
      `${dir}/exp.json`,
      JSON.stringify({
        name: "kill9",
        targets: { cached: { kind: "proxy", upstream: { kind: "builtin" }, cacheTtlSec: 5 } },
        requests: ["/json"],
        loads: { long: { model: "rate", rate: 20, duration: "30s" } },
      }),
    );
    const run = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        new URL("../main.ts", import.meta.url).pathname,
        "run",
        `${dir}/exp.json`,
        "--out-dir",
        `${dir}/out`,
      ],
      stdout: "null",
      stderr: "null",
      env: { LOADLAB_RUN_ID: runId, NO_COLOR: "1" },
    }).spawn();
    try {
      // Wait until the whole tree is up: redis-server and at least two target children besides loadlab.
      const deadline = Date.now() + 30_000;
      let seen = markedProcesses(runId);
      while (
        Date.now() < deadline && !(seen.some((p) => p.command.includes("redis-server")) && seen.length >= 4)
      ) {
        await new Promise((r) => setTimeout(r, 200));
        seen = markedProcesses(runId);
      }
      assert(seen.some((p) => p.command.includes("redis-server")), describeProcesses(seen));
      run.kill("SIGKILL");
      await run.status;
      const left = await waitUntilGone(runId, 5_000);
      assert(left.length === 0, `left running after kill -9 of run:\n${describeProcesses(left)}`);
    } finally {
      try {
        run.kill("SIGKILL");
      } catch { /* dead already */ }
      for (const p of markedProcesses(runId)) {
        try {
          Deno.kill(p.pid, "SIGKILL");
        } catch { /* gone */ }
      }
      await Deno.remove(dir, { recursive: true });
    }
  },
});
