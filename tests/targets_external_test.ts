/**
 * End-to-end tests of external apps: a real node:http script (tests/fixtures/node_app.js) started,
 * probed, logged and stopped by `startTarget`, including the ways apps fail to start.
 */
import {
  deepStrictEqual as assertEquals,
  match as assertMatch,
  ok as assert,
  rejects,
} from "node:assert/strict";
import { startTarget } from "../targets/start.ts";
import { TargetError } from "../targets/errors.ts";
import { freePort } from "../system/ports.ts";
import { ManagedProcess } from "../targets/process.ts";
import { requireProgram } from "./helpers.ts";

const APP = new URL("./fixtures/node_app.js", import.meta.url).pathname;
const hasNode = requireProgram("node");

function alive(pid: number): boolean {
  try {
    const state = Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1][0];
    return state !== "Z";
  } catch {
    return false;
  }
}

function nodeApp(port: number, extra: string[] = [], ready: { path?: string; timeoutMs?: number } = {}) {
  return {
    kind: "external" as const,
    command: "node",
    args: [APP, "--port", String(port), ...extra],
    env: { GREETING: "hello from env" },
    url: `http://127.0.0.1:${port}`,
    ready: { path: "/health", timeoutMs: 10_000, ...ready },
  };
}

Deno.test({
  name: "external app: waits for readiness, passes env, logs to a file, leaves no process after stop",
  ignore: !hasNode,
  async fn() {
    const dir = await Deno.makeTempDir();
    const port = freePort();
    const target = await startTarget(nodeApp(port, ["--startup-delay-ms", "300"]), { logDir: dir });
    try {
      assertEquals(target.url, `http://127.0.0.1:${port}`);
      const body = await (await fetch(`${target.url}/anything`)).json();
      assertEquals(body.greeting, "hello from env");
      assertEquals(target.processes[0].name, "target");
      assert(alive(target.processes[0].pid));
      assertEquals(await target.stats(), {});
    } finally {
      await target.stop();
      await target.stop(); // idempotent
    }
    assert(!alive(target.processes[0].pid), "the app must be gone after stop()");
    const log = await Deno.readTextFile(`${dir}/external.log`);
    assertMatch(log, /listening on/);
    assertMatch(log, /GREETING=hello from env/);
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name: "external app: without a ready path, the port accepting connections is enough",
  ignore: !hasNode,
  async fn() {
    const port = freePort();
    const target = await startTarget({ ...nodeApp(port, ["--startup-delay-ms", "200"]), ready: {} });
    try {
      assertEquals((await fetch(`${target.url}/x`).then((r) => r.json())).app, "node");
    } finally {
      await target.stop();
    }
  },
});

Deno.test({
  name: "external app: exiting during start-up fails with the exit code and the end of stderr",
  ignore: !hasNode,
  async fn() {
    const err = await startTarget(nodeApp(freePort(), ["--exit-early"])).catch((e) => e);
    assert(err instanceof TargetError, String(err));
    assertMatch(err.message, /exited with code 3/);
    assertMatch(err.message, /fatal: database url missing/);
  },
});

Deno.test({
  name: "external app: never ready -> TargetError after the timeout, and the app is stopped",
  ignore: !hasNode,
  async fn() {
    const port = freePort();
    const started = performance.now();
    const err = await startTarget(nodeApp(port, ["--never-ready"], { timeoutMs: 1200 })).catch((e) => e);
    assert(err instanceof TargetError, String(err));
    assertMatch(err.message, /not ready after 1200 ms/);
    assertMatch(err.message, /starting with GREETING/);
    assert(performance.now() - started >= 1100);
    await rejects(fetch(`http://127.0.0.1:${port}/health`), "nothing may listen after the failed start");
  },
});

Deno.test("external app: a missing program is a TargetError naming it", async () => {
  const err = await startTarget({
    kind: "external",
    command: "loadlab-no-such-program",
    url: "http://127.0.0.1:1",
  }).catch((e) => e);
  assert(err instanceof TargetError);
  assertMatch(err.message, /cannot start 'loadlab-no-such-program'/);
  assertMatch(err.hint, /installed and on PATH/);
});

Deno.test("external app: an invalid spec names the field", async () => {
  const err = await startTarget({ kind: "external", command: "node", url: "not a url" }).catch((e) => e);
  assert(err instanceof TargetError);
  assertMatch(err.message, /url: url must be the app's base URL/);
});

Deno.test({
  name: "an app that ignores SIGTERM is killed with SIGKILL after the grace period",
  ignore: !hasNode,
  async fn() {
    const port = freePort();
    const proc = ManagedProcess.spawn({
      name: "stubborn",
      command: "node",
      args: [APP, "--port", String(port), "--ignore-sigterm"],
    });
    await proc.waitForStdoutLine("node_app: listening", 10_000);
    await proc.stop(300);
    assertEquals(proc.status?.signal, "SIGKILL");
    assertMatch(proc.stdoutTail.text, /ignoring SIGTERM/);
    assert(!alive(proc.pid));
  },
});

Deno.test({
  name: "aborting the start signal stops the target",
  ignore: !hasNode,
  async fn() {
    const controller = new AbortController();
    const target = await startTarget(nodeApp(freePort()), { signal: controller.signal });
    controller.abort();
    await target.stop(); // the same stop, already under way
    assert(!alive(target.processes[0].pid));
  },
});
