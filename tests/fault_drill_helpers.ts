/**
 * @module
 * Helpers of tests/fault_drills_2_test.ts: a redis-server on a chosen port (killed and started again
 * on it) with a proxy in front of the built-in target using it, the drill-5 experiment whose targets are
 * counting servers (tests/fixtures/counting_server.ts) that log what they saw and when, and a tmpfs
 * that can be filled to the last byte. Every process started here carries the `LOADLAB_RUN_ID` the
 * test passes, so leftovers are found by a /proc scan.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import type { ResultsFile } from "../results/mod.ts";
import { findProgram } from "../system/path_lookup.ts";
import { freePort } from "../system/ports.ts";
import { withTempDir } from "./helpers.ts";
import { describeProcesses, markedProcesses, waitUntilGone } from "./marked_processes.ts";
import type { RunningTarget } from "../targets/spec.ts";
import { startTarget } from "../targets/start.ts";
import { connectRedis } from "../targets/redis.ts";

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A redis-server on `port`, marked with `runId`; resolves once it accepts connections. */
export async function redisOn(port: number, runId: string) {
  const child = new Deno.Command(findProgram("redis-server")!, {
    // set-proc-title no: Redis would otherwise overwrite the environ that carries the mark.
    args: ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
      .concat(["--set-proc-title", "no"]),
    env: { LOADLAB_RUN_ID: runId },
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes("Ready to accept")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`redis-server on ${port} exited before it was ready:\n${seen}`);
    seen += value;
  }
  // Keep draining: a full stdout pipe would block the server.
  (async () => {
    while (!(await reader.read().catch(() => ({ done: true }))).done) { /* drain */ }
  })();
  return {
    /** SIGKILL: the outage is abrupt, no goodbye to the clients. */
    async kill() {
      try {
        child.kill("SIGKILL");
      } catch { /* gone already */ }
      await child.status;
    },
  };
}

/** Polls `probe` every 100 ms until it returns true; false after `withinMs`. */
export async function eventually(probe: () => Promise<boolean>, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (await probe()) return true;
    await sleep(100);
  }
  return false;
}

export const MAIN = new URL("../main.ts", import.meta.url).pathname;
export const COUNTER = new URL("./fixtures/counting_server.ts", import.meta.url).pathname;

/**
 * Two targets loadlab starts, each a counting server logging into `log`: `direct`, and `limited`, a
 * rate-limiting proxy (its own redis-server) in front of another one. Interleaved order, so with `first`
 * declared first: first/short, other/short, first/long, other/long; the long load runs well past when
 * the tests stop it (in run 3), and each request takes 300 ms, so some are in flight at the stop.
 */
export function experiment(log: string, first: "direct" | "limited"): string {
  const counter = (port: number) => ({
    kind: "external",
    command: Deno.execPath(),
    args: ["run", "-A", COUNTER, String(port), log],
    url: `http://127.0.0.1:${port}`,
  });
  const targets = {
    direct: counter(freePort()),
    limited: {
      kind: "proxy",
      upstream: counter(freePort()),
      rateLimit: { limit: 1_000_000, windowMs: 1000 },
    },
  };
  return JSON.stringify({
    name: "drill5",
    targets: Object.fromEntries(Object.entries(targets).sort(([a]) => a === first ? -1 : 1)),
    requests: ["/slow?ms=300"],
    loads: {
      short: { model: "rate", rate: 40, duration: "1s" },
      long: { model: "rate", rate: 40, duration: "20s" },
    },
    interval: "100ms",
  });
}

/** `loadlab run` on the drill-5 experiment, marked with `runId`, in the background. */
/**
 * An experiment of one caching proxy over the built-in target on the Redis at `redisPort`: `/user` at 50/s.
 */
export function cachedProxyExperiment(name: string, redisPort: number, duration: string): string {
  return JSON.stringify({
    name,
    targets: {
      cached: {
        kind: "proxy",
        upstream: { kind: "builtin" },
        cacheTtlSec: 60,
        redisUrl: `redis://127.0.0.1:${redisPort}`,
      },
    },
    requests: ["/user"],
    loads: { steady: { model: "rate", rate: 50, duration } },
  });
}

export function startRun(dir: string, runId: string, first: "direct" | "limited" = "direct") {
  Deno.writeTextFileSync(`${dir}/exp.json`, experiment(`${dir}/requests.log`, first));
  return spawnRun(dir, runId);
}

/** `loadlab run DIR/exp.json --out-dir DIR/out`, marked with `runId`, in the background. */
export function spawnRun(dir: string, runId: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "run", `${dir}/exp.json`, "--out-dir", `${dir}/out`],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", LOADLAB_RUN_ID: runId },
  }).spawn();
  const dec = new TextDecoder();
  const output = child.output().then((o) => ({
    code: o.code,
    text: dec.decode(o.stderr) + dec.decode(o.stdout),
    endedAtMs: Date.now(),
  }));
  return { child, output };
}

export async function readResults(dir: string): Promise<ResultsFile | null> {
  return await Deno.readTextFile(`${dir}/out/results.json`).then(JSON.parse, () => null);
}

/** Arrivals and answers the counting servers logged, in epoch ms. */
export function serverLog(dir: string) {
  let text = "";
  try {
    text = Deno.readTextFileSync(`${dir}/requests.log`);
  } catch { /* no request yet */ }
  const lines = text.trim().split("\n").map((l) => l.split(" "));
  const times = (kind: string) => lines.filter((l) => l[0] === kind).map((l) => Number(l[2]));
  const answered = new Set(lines.filter((l) => l[0] === "d").map((l) => l[1]));
  return {
    arrivals: times("a"),
    unanswered: lines.filter((l) => l[0] === "a" && !answered.has(l[1])).length,
  };
}

/**
 * Waits until `runs` runs are in results.json and the next one has sent for a second (the counting
 * servers saw it), so the stop lands mid-run; every child is up by then, Redis included.
 */
export async function untilMidRun(dir: string, runs: number, runId: string) {
  const deadline = Date.now() + 40_000;
  let sinceMs = 0;
  let sendingForMs = 0;
  while (Date.now() < deadline && sendingForMs < 1000) {
    const written = (await readResults(dir))?.runs.length ?? 0;
    if (written > runs) throw new Error(`run ${runs + 1} ended before the stop: make the long load longer`);
    if (written === runs && sinceMs === 0) sinceMs = Date.now();
    // The next run's sends: its workers may take seconds to start on a busy machine, so time from the first.
    const next = sinceMs ? serverLog(dir).arrivals.filter((t) => t > sinceMs) : [];
    sendingForMs = next.length ? Math.max(...next) - Math.min(...next) : 0;
    await sleep(100);
  }
  assert(sinceMs > 0, `results.json never held ${runs} runs`);
  assert(sendingForMs >= 1000, `run ${runs + 1} did not send for a second within 40 s`);
  const commands = markedProcesses(runId).map((p) => p.command).join("\n");
  assert(
    /redis-server/.test(commands) && /counting_server/.test(commands),
    `children before the stop:\n${commands}`,
  );
}

/** Why a tmpfs cannot be mounted here, or null when it can (tried once: mount, unmount). */
export function tmpfsUnavailable(): string | null {
  if (Deno.build.os !== "linux") return "a tmpfs needs Linux";
  const dir = Deno.makeTempDirSync({ prefix: "loadlab-tmpfs-probe-" });
  try {
    const mount = new Deno.Command("mount", {
      args: ["-t", "tmpfs", "-o", "size=64k", "tmpfs", dir],
      stdout: "null",
      stderr: "piped",
    }).outputSync();
    if (!mount.success) {
      return `mount -t tmpfs is not permitted: ${new TextDecoder().decode(mount.stderr).trim()}`;
    }
    new Deno.Command("umount", { args: [dir] }).outputSync();
    return null;
  } catch (err) {
    return `mount cannot run: ${(err as Error).message}`;
  } finally {
    Deno.removeSync(dir);
  }
}

/** Fills the file system of `dir` to the last byte (the write fails with ENOSPC once it is full). */
export async function fillDisk(dir: string): Promise<void> {
  const file = await Deno.open(`${dir}/filler`, { write: true, create: true });
  const chunk = new Uint8Array(64 * 1024);
  try {
    for (;;) await file.write(chunk);
  } catch (err) {
    if (!(err instanceof Error) || !/os error 28/.test(err.message)) throw err;
  } finally {
    file.close();
  }
}

/** Runs `fn` with an 8 MiB tmpfs mounted in a temporary folder; unmounts it whatever happens. */
export async function withTmpfs(fn: (disk: string, dir: string) => Promise<void>): Promise<void> {
  await withTempDir(async (dir) => {
    const disk = `${dir}/disk`;
    await Deno.mkdir(disk);
    const mount = await new Deno.Command("mount", { args: ["-t", "tmpfs", "-o", "size=8m", "tmpfs", disk] })
      .output();
    assert(mount.success, "mount -t tmpfs failed (CI=true runs this as root)");
    try {
      await fn(disk, dir);
    } finally {
      const umount = await new Deno.Command("umount", { args: [disk] }).output();
      if (!umount.success) await new Deno.Command("umount", { args: ["-l", disk] }).output();
    }
  });
}

export function dirname(path: string): string {
  return path.slice(0, path.lastIndexOf("/"));
}

export async function get(url: string, headers?: Record<string, string>) {
  const res = await fetch(url, { headers });
  return { status: res.status, cache: res.headers.get("x-cache"), text: await res.text() };
}

/** Runs `fn` with a marked Redis on a free port and a proxy in front of the built-in target; cleans up. */
export async function withProxy(
  name: string,
  proxyOpts: { cacheTtlSec?: number; rateLimit?: { limit: number; windowMs: number } },
  fn: (proxy: RunningTarget, redis: { kill(): Promise<void>; restart(): Promise<void> }) => Promise<void>,
) {
  const runId = `${name}-${crypto.randomUUID()}`;
  const port = freePort();
  let server = await redisOn(port, runId);
  const proxy = await startTarget({
    kind: "proxy",
    upstream: { kind: "builtin" },
    redisUrl: `redis://127.0.0.1:${port}`,
    ...proxyOpts,
  });
  try {
    await fn(proxy, {
      kill: () => server.kill(),
      async restart() {
        server = await redisOn(port, runId);
      },
    });
  } finally {
    await proxy.stop();
    await server.kill();
  }
  const left = await waitUntilGone(runId, 3000);
  assertEquals(left, [], describeProcesses(left));
}

/** How many keys the Redis on `port` holds (0 when it cannot be reached). */
export async function redisKeys(port: number): Promise<number> {
  const client = await connectRedis(`redis://127.0.0.1:${port}`, 1000).catch(() => null);
  try {
    return (await client?.dbSize()) ?? 0;
  } finally {
    await client?.disconnect().catch(() => {});
  }
}
