/**
 * @module
 * Redis temp folders left by a loadlab killed with `kill -9` (its stop never ran) are removed by the
 * next loadlab that starts a redis-server, by the owner mark in each folder; a folder whose loadlab
 * still runs is kept. Real `loadlab serve --proxy` processes (each starts its own redis-server) with
 * TMPDIR pointed at a folder of this test. Needs redis-server (skipped with the reason when missing;
 * CI=true runs it). Linux only: liveness is read from /proc.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { MAIN } from "./fault_drill_helpers.ts";
import { requireProgram, withTempDir } from "./helpers.ts";
import { markedProcesses, waitUntilGone } from "./marked_processes.ts";

function serve(tmp: string, upstreamPort: number, runId: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "serve", "--proxy", `http://127.0.0.1:${upstreamPort}`, "--port", "0"],
    stdout: "piped",
    stderr: "null",
    env: { NO_COLOR: "1", TMPDIR: tmp, LOADLAB_RUN_ID: runId },
  }).spawn();
  return child;
}

/** Waits for serve's first stdout line (it is listening, redis-server up); keeps draining after. */
async function listening(child: Deno.ChildProcess): Promise<void> {
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  const timer = setTimeout(() => reader.cancel(), 30_000);
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
  }
  clearTimeout(timer);
  assert(text.startsWith("loadlab serve: listening"), text);
  (async () => {
    while (!(await reader.read().catch(() => ({ done: true }))).done) { /* drain */ }
  })();
}

const redisDirs = (tmp: string) =>
  [...Deno.readDirSync(tmp)].filter((e) => e.name.startsWith("loadlab-redis-")).map((e) => e.name).sort();

Deno.test({
  name: "a Redis temp folder left by kill -9 is removed by the next loadlab; a live one's is kept",
  ignore: Deno.build.os !== "linux" || !requireProgram("redis-server"),
  async fn() {
    const upstream = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("ok"));
    const runId = `redis-stale-${crypto.randomUUID()}`;
    try {
      await withTempDir(async (tmp) => {
        const killed = serve(tmp, upstream.addr.port, runId);
        await listening(killed);
        const stale = redisDirs(tmp);
        assertEquals(stale.length, 1, "the first serve made one Redis folder");
        killed.kill("SIGKILL");
        await killed.status;
        await waitUntilGone(runId, 5_000);
        assertEquals(redisDirs(tmp), stale, "kill -9 leaves the folder behind");

        const live = serve(tmp, upstream.addr.port, runId);
        await listening(live);
        const second = serve(tmp, upstream.addr.port, runId);
        await listening(second);
        const now = redisDirs(tmp);
        assert(!now.includes(stale[0]), `the stale folder must be gone: ${now}`);
        assertEquals(now.length, 2, `both live serves keep their folders: ${now}`);
        for (const child of [live, second]) {
          child.kill("SIGINT");
          await child.status;
        }
        assertEquals(redisDirs(tmp), [], "a normal stop removes its folder");
      });
    } finally {
      for (const p of markedProcesses(runId)) {
        try {
          Deno.kill(p.pid, "SIGKILL"); // only on failure: this test's own leftovers, by its own mark
        } catch { /* gone */ }
      }
      await upstream.shutdown();
    }
  },
});
