/**
 * @module
 * Fault drills end to end, second part (issue 9): Redis killed under the caching proxy and under the
 * rate limiter and brought back on the same port (3); SIGINT, SIGTERM and a second SIGINT in the middle
 * of a multi-run experiment whose targets loadlab starts, one of them a proxy with its own redis-server
 * (5); the disk filling up in the middle of an experiment (6: a small tmpfs as the output folder,
 * filled by the test after the first run is written; skipped with a reason where mount is not
 * permitted, never under CI=true, which runs as root). The drill-5 targets are tests/fixtures/counting_server.ts, which logs what the server saw and
 * when, so "no new send after 1 s" is checked on the server's side. Every process here (a redis-server
 * the test starts, a loadlab and all it starts) carries a `LOADLAB_RUN_ID` of its own, so "nothing left
 * running" is a scan of /proc for that mark.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { requireProgram, withTempDir } from "./helpers.ts";
import { describeProcesses, markedProcesses, waitUntilGone } from "./marked_processes.ts";
import type { ResultsFile } from "../results/mod.ts";
import { type RunningTarget, startTarget } from "../targets/mod.ts";
import { findProgram } from "../targets/path_lookup.ts";
import { freePort } from "../targets/free_port.ts";

const hasRedis = requireProgram("redis-server");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A redis-server on `port`, marked with `runId`; resolves once it accepts connections. */
async function redisOn(port: number, runId: string) {
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

async function get(url: string, headers?: Record<string, string>) {
  const res = await fetch(url, { headers });
  return { status: res.status, cache: res.headers.get("x-cache"), text: await res.text() };
}

/** Polls `probe` every 100 ms until it returns true; false after `withinMs`. */
async function eventually(probe: () => Promise<boolean>, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (await probe()) return true;
    await sleep(100);
  }
  return false;
}

/** Runs `fn` with a marked Redis on a free port and a proxy in front of the built-in target; cleans up. */
async function withProxy(
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

Deno.test({
  name:
    "drill 3: Redis killed under the caching proxy: answered from the upstream, bypasses counted; back: hits resume",
  ignore: !hasRedis,
  async fn() {
    await withProxy("drill3-cache", { cacheTtlSec: 60 }, async (proxy, redis) => {
      assertEquals((await get(`${proxy.url}/user`)).cache, "MISS");
      assertEquals((await get(`${proxy.url}/user`)).cache, "HIT");
      await redis.kill();
      for (let i = 0; i < 5; i++) {
        const res = await get(`${proxy.url}/user`);
        assertEquals([res.status, res.cache], [200, "BYPASS"]);
        assertEquals(JSON.parse(res.text).name, "Ada Lovelace", "the upstream's answer, not an error page");
      }
      const down = await proxy.stats();
      assertEquals([down.hits, down.misses, down.bypasses], [1, 1, 5]);
      await redis.restart();
      // The proxy's client reconnects by itself (within a second); the new Redis is empty: a miss, then hits.
      let last = "";
      const back = await eventually(
        async () => (last = (await get(`${proxy.url}/user`)).cache ?? "") === "MISS",
        5000,
      );
      assert(back, `no MISS within 5 s of Redis coming back (last x-cache: ${last})`);
      for (let i = 0; i < 3; i++) assertEquals((await get(`${proxy.url}/user`)).cache, "HIT");
      const after = await proxy.stats();
      assertEquals([after.hits, after.misses], [4, 2]);
      assert(after.bypasses >= 5, `bypasses ${after.bypasses}`);
    });
  },
});

Deno.test({
  name:
    "drill 3: Redis killed under the rate limiter: requests let through and counted; back: limiting resumes",
  ignore: !hasRedis,
  async fn() {
    await withProxy("drill3-limit", { rateLimit: { limit: 3, windowMs: 60_000 } }, async (proxy, redis) => {
      const as = (client: string) => ({ "x-forwarded-for": client });
      const statuses = async (client: string, n: number) => {
        const out: number[] = [];
        for (let i = 0; i < n; i++) out.push((await get(`${proxy.url}/json`, as(client))).status);
        return out;
      };
      assertEquals(await statuses("10.0.0.1", 4), [200, 200, 200, 429]);
      await redis.kill();
      assertEquals(await statuses("10.0.0.1", 5), [200, 200, 200, 200, 200], "fail open while Redis is down");
      const down = await proxy.stats();
      assertEquals([down.limited, down.limiterBypasses], [1, 5]);
      await redis.restart();
      // Back once a request costs no bypass (the limiter reached Redis again).
      let bypasses = down.limiterBypasses;
      const back = await eventually(async () => {
        await get(`${proxy.url}/json`, as("10.0.0.99"));
        const now = (await proxy.stats()).limiterBypasses;
        const reached = now === bypasses;
        bypasses = now;
        return reached;
      }, 5000);
      assert(back, `the limiter still bypassed Redis 5 s after it came back (${bypasses} bypasses)`);
      assertEquals(await statuses("10.0.0.2", 4), [200, 200, 200, 429], "limiting resumed");
      const after = await proxy.stats();
      assertEquals(after.limited, 2);
      assertEquals(after.limiterBypasses, bypasses);
    });
  },
});

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const COUNTER = new URL("./fixtures/counting_server.ts", import.meta.url).pathname;

/**
 * Two targets loadlab starts, each a counting server logging into `log`: `direct`, and `limited`, a
 * rate-limiting proxy (its own redis-server) in front of another one. Interleaved order, so with `first`
 * declared first: first/short, other/short, first/long, other/long; the long load runs well past when
 * the tests stop it (in run 3), and each request takes 300 ms, so some are in flight at the stop.
 */
function experiment(log: string, first: "direct" | "limited"): string {
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
function startRun(dir: string, runId: string, first: "direct" | "limited" = "direct") {
  Deno.writeTextFileSync(`${dir}/exp.json`, experiment(`${dir}/requests.log`, first));
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

async function readResults(dir: string): Promise<ResultsFile | null> {
  return await Deno.readTextFile(`${dir}/out/results.json`).then(JSON.parse, () => null);
}

/** Arrivals and answers the counting servers logged, in epoch ms. */
function serverLog(dir: string) {
  const lines = Deno.readTextFileSync(`${dir}/requests.log`).trim().split("\n").map((l) => l.split(" "));
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
async function untilMidRun(dir: string, runs: number, runId: string) {
  const deadline = Date.now() + 40_000;
  let sinceMs = 0;
  while (Date.now() < deadline) {
    const written = (await readResults(dir))?.runs.length ?? 0;
    if (written > runs) throw new Error(`run ${runs + 1} ended before the stop: make the long load longer`);
    if (written === runs && sinceMs === 0) sinceMs = Date.now();
    if (sinceMs && serverLog(dir).arrivals.some((t) => t > sinceMs + 1000)) break;
    await sleep(100);
  }
  assert(sinceMs > 0, `results.json never held ${runs} runs`);
  const commands = markedProcesses(runId).map((p) => p.command).join("\n");
  assert(
    /redis-server/.test(commands) && /counting_server/.test(commands),
    `children before the stop:\n${commands}`,
  );
}

/** The drill-5 checks after a graceful stop by `signal` during run 3, the long load of `first`. */
async function stopMidExperiment(
  signal: "SIGINT" | "SIGTERM",
  first: "direct" | "limited",
  exitCode: number,
) {
  await withTempDir(async (dir) => {
    const runId = `drill5-${signal}-${crypto.randomUUID()}`;
    const { child, output } = startRun(dir, runId, first);
    const other = first === "direct" ? "limited" : "direct";
    try {
      await untilMidRun(dir, 2, runId);
    } catch (err) {
      child.kill("SIGKILL");
      throw new Error(`${err}\n${(await output).text}`);
    }
    const stopAtMs = Date.now();
    child.kill(signal);
    const { code, text } = await output;
    assertEquals(code, exitCode, text);
    const { arrivals, unanswered } = serverLog(dir);
    const lastMs = Math.max(...arrivals);
    assert(lastMs <= stopAtMs + 1000, `a request arrived ${lastMs - stopAtMs} ms after ${signal}`);
    assertEquals(unanswered, 0, "every request in flight at the stop got its answer");
    const results = (await readResults(dir))!;
    assertEquals(results.complete, false);
    assertEquals(
      results.runs.map((r) => [r.name, Boolean(r.incomplete)]),
      [[`${first}/short`, false], [`${other}/short`, false], [`${first}/long`, true]],
    );
    const stopped = results.runs[2];
    const errors = Object.values(stopped.errors).reduce((n, e) => n + (e ?? 0), 0);
    assert(stopped.requests > 10 && errors === 0, `graceful: ${stopped.requests} answered, ${errors} errors`);
    // What the servers saw is what loadlab counted: nothing sent after the stop went unnoticed.
    assertEquals(results.runs.reduce((n, r) => n + r.requests, 0), arrivals.length);
    const report = await Deno.readTextFile(`${dir}/out/report.html`);
    assert(report.includes(stopped.name), "the report shows the stopped run");
    const left = await waitUntilGone(runId, 5000);
    assertEquals(left, [], describeProcesses(left));
  });
}

Deno.test({
  name:
    "drill 5: SIGINT mid-experiment: sends stop within 1 s, in-flight answered, runs kept, incomplete one saved, exit 130, nothing left",
  ignore: !hasRedis,
  fn: () => stopMidExperiment("SIGINT", "direct", 130),
});

Deno.test({
  name: "drill 5: SIGTERM during the proxy's run: the same graceful stop, exit 143, redis-server stopped too",
  ignore: !hasRedis,
  fn: () => stopMidExperiment("SIGTERM", "limited", 143),
});

Deno.test({
  name: "drill 5: a second SIGINT exits at once (130), finished runs kept, nothing left running",
  ignore: !hasRedis,
  async fn() {
    await withTempDir(async (dir) => {
      const runId = `drill5-twice-${crypto.randomUUID()}`;
      const { child, output } = startRun(dir, runId);
      try {
        await untilMidRun(dir, 2, runId);
      } catch (err) {
        child.kill("SIGKILL");
        throw new Error(`${err}\n${(await output).text}`);
      }
      child.kill("SIGINT");
      await sleep(50);
      const secondAtMs = Date.now();
      child.kill("SIGINT");
      const { code, text, endedAtMs } = await output;
      assertEquals(code, 130, text);
      // "At once": without waiting for the 300 ms answers in flight or the 2 s graceful stop.
      assert(endedAtMs - secondAtMs < 1000, `exited ${endedAtMs - secondAtMs} ms after the second SIGINT`);
      const results = (await readResults(dir))!;
      assertEquals(results.runs.map((r) => r.name), ["direct/short", "limited/short"]);
      const left = await waitUntilGone(runId, 5000);
      assertEquals(left, [], describeProcesses(left));
    });
  },
});

/** Why a tmpfs cannot be mounted here, or null when it can (tried once: mount, unmount). */
function tmpfsUnavailable(): string | null {
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

const noTmpfs = tmpfsUnavailable();
const onCi = Deno.env.get("CI") === "true";
if (noTmpfs && !onCi) console.log(`skipped: drill 6 (full disk): ${noTmpfs}`);

/** Fills the file system of `dir` to the last byte (the write fails with ENOSPC once it is full). */
async function fillDisk(dir: string): Promise<void> {
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
async function withTmpfs(fn: (disk: string, dir: string) => Promise<void>): Promise<void> {
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

/** The one stderr line about the full disk: it names `path` itself, not a temporary copy. */
function assertNamed(stderr: string, path: string): void {
  const named = stderr.split("\n").filter((l) => l.includes("No space left on device"));
  assertEquals(named.length, 1, stderr);
  assert(named[0].includes(`cannot write ${path}: No space left on device (os error 28)`), named[0]);
  assert(!named[0].includes(".tmp"), `names the file, not its temporary copy: ${named[0]}`);
}

for (const log of [false, true]) {
  Deno.test({
    name: `drill 6: the disk fills up mid-experiment${log ? " (request log on)" : ""}: exit 5 naming ${
      log ? "the log" : "results.json"
    } and the OS error, earlier results intact, target stopped`,
    ignore: noTmpfs !== null && !onCi,
    fn: () => withTmpfs((disk, dir) => fullDiskDrill(dir, `${disk}/out`, log)),
  });
}

/**
 * Runs a three-run experiment into `out` (on the tmpfs) and fills the disk once the first run is
 * written, during the second (2 s): what fails is the second run's request log with `log`, else its
 * results.json.
 */
async function fullDiskDrill(dir: string, out: string, log: boolean) {
  const runId = `drill6-${crypto.randomUUID()}`;
  await Deno.writeTextFile(
    `${dir}/exp.json`,
    JSON.stringify({
      name: "drill6",
      log,
      targets: { app: { kind: "builtin" } },
      requests: ["/json"],
      loads: {
        first: { model: "count", requests: 30, connections: 2 },
        second: { model: "connections", connections: 2, duration: "2s" },
        third: { model: "count", requests: 30, connections: 2 },
      },
    }),
  );
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "run", `${dir}/exp.json`, "--out-dir", out],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", LOADLAB_RUN_ID: runId },
  }).spawn();
  const dec = new TextDecoder();
  const output = child.output().then((o) => ({ code: o.code, stderr: dec.decode(o.stderr) }));
  // The first run is in both files (the report is written after results.json).
  let before: { results: string; report: string } | null = null;
  const deadline = Date.now() + 30_000;
  while (!before && Date.now() < deadline) {
    const results = await Deno.readTextFile(`${out}/results.json`).catch(() => "");
    const report = await Deno.readTextFile(`${out}/report.html`).catch(() => "");
    if (results.includes('"app/first"') && report.includes("app/first")) before = { results, report };
    else await sleep(50);
  }
  if (!before) child.kill("SIGKILL");
  await fillDisk(dirname(out));
  const { code, stderr } = await output;
  assert(before, `the first run was never written:\n${stderr}`);
  assertEquals(code, 5, stderr);
  assertNamed(stderr, log ? `${out}/requests/app_second.csv` : `${out}/results.json`);
  assertEquals(await Deno.readTextFile(`${out}/results.json`), before.results, "results.json as after run 1");
  assertEquals(await Deno.readTextFile(`${out}/report.html`), before.report, "report.html as after run 1");
  const leftovers = [...Deno.readDirSync(out)].map((e) => e.name).filter((n) => n.endsWith(".tmp"));
  assertEquals(leftovers, [], "no temporary file left behind");
  const left = await waitUntilGone(runId, 5000);
  assertEquals(left, [], describeProcesses(left));
}

Deno.test({
  name: "drill 6: the disk fills up under attack --log mid-run: exit 5 naming the log and the OS error",
  ignore: noTmpfs !== null && !onCi,
  async fn() {
    const target = await startTarget({ kind: "builtin" });
    try {
      await withTmpfs(async (disk) => {
        const child = new Deno.Command(Deno.execPath(), {
          args: ["run", "-A", MAIN, "attack", `${target.url}/json`, "-c", "2", "-d", "2s", "-q"]
            .concat(["--log", `${disk}/log.csv`, "--out", `${disk}/results.json`]),
          stdout: "null",
          stderr: "piped",
          env: { NO_COLOR: "1" },
        }).spawn();
        const output = child.output();
        await sleep(1000);
        await fillDisk(disk);
        const { code, stderr } = await output;
        const text = new TextDecoder().decode(stderr);
        assertEquals(code, 5, text);
        assertNamed(text, `${disk}/log.csv`);
      });
    } finally {
      await target.stop();
    }
  },
});

function dirname(path: string): string {
  return path.slice(0, path.lastIndexOf("/"));
}
