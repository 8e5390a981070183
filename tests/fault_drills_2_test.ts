/**
 * @module
 * Fault drills end to end, second part: Redis killed under the caching proxy and under the
 * rate limiter and brought back on the same port (3); SIGINT, SIGTERM and a second SIGINT in the middle
 * of a multi-run experiment whose targets loadlab starts, one of them a proxy with its own redis-server
 * (5); the disk filling up in the middle of an experiment (6: a small tmpfs as the output folder, filled
 * by the test after the first run is written; skipped with a reason where mount is not permitted, never
 * under CI=true, which runs as root). The drill-5 targets are counting servers that log what they saw
 * and when, so "no new send after 1 s" is checked on the server's side. Every process here carries a
 * `LOADLAB_RUN_ID` of its own, so "nothing left running" is a scan of /proc for that mark. Helpers:
 * tests/fault_drill_helpers.ts.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { requireProgram, runLoadlab, withTempDir } from "./helpers.ts";
import { describeProcesses, waitUntilGone } from "./marked_processes.ts";
import {
  cachedProxyExperiment,
  COUNTER,
  dirname,
  eventually,
  fillDisk,
  get,
  MAIN,
  readResults,
  redisKeys,
  redisOn,
  serverLog,
  sleep,
  spawnRun,
  startRun,
  tmpfsUnavailable,
  untilMidRun,
  withProxy,
  withTmpfs,
} from "./fault_drill_helpers.ts";
import type { ResultsFile } from "../results/mod.ts";
import { startTarget } from "../targets/start.ts";
import { testPool } from "./fixtures/test_pool.ts";
import { freePort } from "../system/ports.ts";

const hasRedis = requireProgram("redis-server");
/** The drills mostly wait (runs of seconds, Redis restarts, signals): three at once. */
const pool = testPool(3);

pool.test(
  "drill 3: Redis killed under the caching proxy: answered from the upstream, bypasses counted; back: hits resume",
  async () => {
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
  { ignore: !hasRedis },
);

pool.test(
  "drill 3: Redis killed under the rate limiter: requests let through and counted; back: limiting resumes",
  async () => {
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
  { ignore: !hasRedis },
);

pool.test(
  "drill 3 under load: `loadlab run` through the proxy while its Redis dies and comes back: no error, bypasses and the resumed hits in targetStats",
  async () => {
    await withTempDir(async (dir) => {
      const runId = `drill3-run-${crypto.randomUUID()}`;
      const port = freePort();
      let redis = await redisOn(port, runId);
      await Deno.writeTextFile(`${dir}/exp.json`, cachedProxyExperiment("drill3", port, "5s"));
      const { output } = spawnRun(dir, runId);
      try {
        // The first miss stored the page: the load is on. Then an outage of about a second.
        const cached = await eventually(() => redisKeys(port).then((n) => n > 0), 30_000);
        assert(cached, "the proxy never cached the page");
        await sleep(1000);
        await redis.kill();
        await sleep(1000);
        redis = await redisOn(port, runId);
        const { code, text } = await output;
        assertEquals(code, 0, text);
      } finally {
        await redis.kill();
      }
      const run = (await readResults(dir))!.runs[0];
      const errors = Object.values(run.errors).reduce((n, e) => n + (e ?? 0), 0);
      assertEquals(
        [errors, Object.keys(run.statusCodes)],
        [0, ["200"]],
        "every request answered 200 throughout",
      );
      const { hits, misses, bypasses } = run.targetStats ?? {};
      assert(bypasses >= 10, `the outage shows as bypasses: ${JSON.stringify(run.targetStats)}`);
      // A miss after the restart (the new Redis is empty) means the proxy used Redis again.
      assert(misses >= 2 && hits > bypasses, `hits resumed: ${JSON.stringify(run.targetStats)}`);
      assertEquals(hits + misses + bypasses, run.requests);
      const left = await waitUntilGone(runId, 5000);
      assertEquals(left, [], describeProcesses(left));
    });
  },
  { ignore: !hasRedis },
);

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

pool.test(
  "drill 5: SIGINT mid-experiment: sends stop within 1 s, in-flight answered, runs kept, incomplete one saved, exit 130, nothing left",
  () => stopMidExperiment("SIGINT", "direct", 130),
  { ignore: !hasRedis },
);

pool.test(
  "drill 5: SIGTERM during the proxy's run: the same graceful stop, exit 143, redis-server stopped too",
  () => stopMidExperiment("SIGTERM", "limited", 143),
  { ignore: !hasRedis },
);

pool.test(
  "drill 5: a second SIGINT exits at once (130), finished runs kept, nothing left running",
  async () => {
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
  { ignore: !hasRedis },
);

pool.test("drill 5: SIGTERM stops attack gracefully too: partial results written, exit 143", async () => {
  await withTempDir(async (dir) => {
    const port = freePort();
    Deno.writeTextFileSync(`${dir}/requests.log`, "");
    const server = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", COUNTER, String(port), `${dir}/requests.log`],
      stdout: "null",
      stderr: "null",
    }).spawn();
    try {
      const child = new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", MAIN, "attack", `http://127.0.0.1:${port}/`, "-R", "50", "-d", "60s", "--no-live"]
          .concat(["--out", `${dir}/results.json`]),
        stdout: "null",
        stderr: "piped",
        env: { NO_COLOR: "1" },
      }).spawn();
      const output = child.output();
      // Mid-load: the server has seen requests, so the handler is installed.
      const sending = await eventually(() => Promise.resolve(serverLog(dir).arrivals.length >= 10), 30_000);
      child.kill("SIGTERM");
      const { code, stderr } = await output;
      assert(sending, "the attack never sent 10 requests");
      assertEquals(code, 143, new TextDecoder().decode(stderr));
      const results: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/results.json`));
      assert(results.runs[0].requests >= 10, "the partial run is written");
    } finally {
      server.kill("SIGKILL");
      await server.status;
    }
  });
});

pool.test("drill 6 before load: run --summary or --junit under a regular file exits 5 naming it, nothing started", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/file`, "not a folder");
    await Deno.writeTextFile(
      `${dir}/exp.json`,
      JSON.stringify({
        name: "drill6-before",
        targets: { app: { kind: "builtin" } },
        loads: { few: { model: "count", requests: 5, connections: 1 } },
      }),
    );
    for (const flag of ["--summary", "--junit"]) {
      const r = await runLoadlab([
        "run",
        `${dir}/exp.json`,
        "--out-dir",
        `${dir}/out`,
        flag,
        `${dir}/file/x`,
      ]);
      assertEquals(r.code, 5, `${flag}: ${r.stderr}`);
      assert(r.stderr.includes(`${flag} ${dir}/file/x: cannot write`), r.stderr);
      assert(!/^run \d/m.test(r.stdout), `${flag}: no run started`);
      assert(
        !(await Deno.stat(`${dir}/out/results.json`).then(() => true, () => false)),
        "no results written",
      );
    }
  });
});

const noTmpfs = tmpfsUnavailable();
const onCi = Deno.env.get("CI") === "true";
if (noTmpfs && !onCi) console.log(`skipped: drill 6 (full disk): ${noTmpfs}`);

/** The one stderr line about the full disk: it names `path` itself, not a temporary copy. */
function assertNamed(stderr: string, path: string): void {
  const named = stderr.split("\n").filter((l) => l.includes("No space left on device"));
  assertEquals(named.length, 1, stderr);
  assert(named[0].includes(`cannot write ${path}: No space left on device (os error 28)`), named[0]);
  assert(!named[0].includes(".tmp"), `names the file, not its temporary copy: ${named[0]}`);
}

for (const log of [false, true]) {
  pool.test(
    `drill 6: the disk fills up mid-experiment${log ? " (request log on)" : ""}: exit 5 naming ${
      log ? "the log" : "results.json"
    } and the OS error, earlier results intact, target stopped`,
    () => withTmpfs((disk, dir) => fullDiskDrill(dir, `${disk}/out`, log)),
    { ignore: noTmpfs !== null && !onCi },
  );
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

pool.test(
  "drill 6: the disk fills up under attack --log mid-run: exit 5 naming the log and the OS error",
  async () => {
    const target = await startTarget({ kind: "builtin" });
    try {
      // The results go to another disk: since they are saved despite a failed log, on the full one they
      // would fail too (a second line).
      await withTmpfs(async (disk, dir) => {
        const child = new Deno.Command(Deno.execPath(), {
          args: ["run", "-A", MAIN, "attack", `${target.url}/json`, "-c", "2", "-d", "2s", "-q"]
            .concat(["--log", `${disk}/log.csv`, "--out", `${dir}/results.json`]),
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
  { ignore: noTmpfs !== null && !onCi },
);
