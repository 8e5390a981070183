/**
 * Every run ends within its duration, timeout, graceful stop and one second, whatever its session
 * script does: a session that never yields its isolate (a busy loop after one request) has its worker
 * ended one second past the graceful stop on both transports, the run flagged, the cut counted and its
 * rate over the time it had; a count whose sessions never end stops at its max duration (a field, a
 * flag), named so, its results written, or sooner when every session waits on its own code (not on a
 * request, not in `s.sleep`) past the request timeout; a signal while the load workers prepare ends
 * loadlab within 2 s, and a prepare that outlives its time limit is one line and exit 2, not a stack and
 * the exit code of a failed threshold. Real worker isolates against the built-in target; loads are
 * sub-second, bounds of a second.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { parseAttackConfig } from "../runner/config.ts";
import { runLoadlab, withTarget, withTempDir } from "./helpers.ts";
import { runAttack } from "../runner/attack.ts";
import { runVerdict } from "../results/conclude/run_verdict.ts";
import { testPool } from "./fixtures/test_pool.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const script = (name: string) => new URL(`./fixtures/scripts/${name}`, import.meta.url).pathname;

const DURATION_MS = 600;
const TIMEOUT_MS = 1_000;
const GRACEFUL_STOP_MS = 200;
/** The bound every run keeps, counted from its start. */
const BOUND_MS = DURATION_MS + TIMEOUT_MS + GRACEFUL_STOP_MS + 1_000;

for (const transport of ["deno", "epoll"] as const) {
  Deno.test(`a session in a busy loop (${transport}): its worker ended within duration + timeout + graceful stop + 1 s`, () =>
    withTarget(async (url) => {
      let startedMs = Infinity;
      const run = await runAttack(
        parseAttackConfig({
          url,
          model: "connections",
          connections: 2,
          workers: 1,
          durationMs: DURATION_MS,
          timeoutMs: TIMEOUT_MS,
          gracefulStopMs: GRACEFUL_STOP_MS,
          intervalMs: 100,
          transport,
          script: { path: script("blocking_user.ts") },
        }),
        { onStart: () => startedMs = performance.now() },
      );
      const tookMs = performance.now() - startedMs;
      ok(tookMs < BOUND_MS, `ended ${Math.round(tookMs)} ms after its start (bound ${BOUND_MS} ms)`);
      assertEquals([run.incomplete, run.stuckWorkers, run.transport], [true, 1, transport]);
      // Both sessions were cut with their worker: the one in its loop, and the other's think time.
      assertEquals(run.unfinished, 2, "the cut sessions are counted");
      // The rate is over the load it had: its 600 ms, not the ms between its last sample and the cut.
      ok(run.durationSec >= 0.59 && run.durationSec <= 0.61, `durationSec ${run.durationSec}`);
      assertEquals(
        runVerdict(run).flags.find((f) => f.kind === "incomplete")?.label,
        "incomplete: 1 worker stuck in blocking_user.ts",
      );
    }));
}

/** A count of sessions that each wait on a promise nothing resolves after their first request. */
const pendingCount = (url: string, limits: { maxDurationMs?: number; timeoutMs: number }) =>
  parseAttackConfig({
    url,
    model: "count",
    requests: 4,
    connections: 2,
    workers: 1,
    gracefulStopMs: GRACEFUL_STOP_MS,
    intervalMs: 100,
    script: { path: script("pending.ts") },
    ...limits,
  });

Deno.test("a count whose sessions wait for ever ends at its max duration, named so", () =>
  withTarget(async (url) => {
    let startedMs = Infinity;
    // The request timeout is long: the max duration ends this run, not the idle rule.
    const run = await runAttack(pendingCount(url, { maxDurationMs: 800, timeoutMs: 60_000 }), {
      onStart: () => startedMs = performance.now(),
    });
    const tookMs = performance.now() - startedMs;
    ok(tookMs < 800 + GRACEFUL_STOP_MS + 1_000, `ended ${Math.round(tookMs)} ms after its start`);
    assertEquals([run.incomplete, run.endedBy, run.stuckWorkers], [true, "maxDuration", undefined]);
    assertEquals([run.flows![0].sessions, run.flows![0].completed], [2, 0]);
    ok(run.durationSec >= 0.79 && run.durationSec <= 0.81, `durationSec ${run.durationSec}`);
    const flag = runVerdict(run).flags.find((f) => f.kind === "incomplete");
    assertEquals(flag?.label, "incomplete: count not reached within its max duration (800.00 ms)");
  }));

Deno.test("a count whose every session waits on its own code past the request timeout ends as idle", () =>
  withTarget(async (url) => {
    let startedMs = Infinity;
    // Its max duration only bounds the test should the idle rule not end it.
    const run = await runAttack(pendingCount(url, { timeoutMs: 500, maxDurationMs: 30_000 }), {
      onStart: () => startedMs = performance.now(),
    });
    const tookMs = performance.now() - startedMs;
    ok(tookMs < 500 + GRACEFUL_STOP_MS + 1_000 + 1_000, `ended ${Math.round(tookMs)} ms after its start`);
    assertEquals([run.incomplete, run.endedBy, run.requests], [true, "idle", 2]);
    const flag = runVerdict(run).flags.find((f) => f.kind === "incomplete");
    assertEquals(
      flag?.label,
      "incomplete: idle, every session waiting on its own code (not a request, not s.sleep) past the timeout",
    );
  }));

Deno.test("sessions in a think time (s.sleep) are not idle: the count ends at its max duration instead", () =>
  withTarget(async (url) => {
    const run = await runAttack(parseAttackConfig({
      url,
      model: "count",
      requests: 2,
      connections: 1,
      workers: 1,
      timeoutMs: 200,
      maxDurationMs: 1_000,
      gracefulStopMs: GRACEFUL_STOP_MS,
      intervalMs: 100,
      script: { path: script("get_then_sleep.ts") },
    }));
    assertEquals([run.endedBy, run.requests], ["maxDuration", 1]);
  }));

Deno.test("max duration: a count's default is 10 minutes, and a bad one is refused at its field", () => {
  const count = { url: "http://127.0.0.1:1", model: "count", requests: 1 } as const;
  assertEquals((parseAttackConfig(count) as { maxDurationMs?: number }).maxDurationMs, 600_000);
  let message = "";
  try {
    parseAttackConfig({ ...count, maxDurationMs: 0 });
  } catch (err) {
    message = String(err);
  }
  ok(message.includes("maxDurationMs") && message.includes("max duration must be > 0"), message);
});

/** Processes at once, after the tests above; the never-prepared case's 30 s start with the file, below. */
const pool = testPool(4);

/**
 * `loadlab run` of a script whose load workers never finish preparing, started as the file loads so its
 * 30 s time limit runs beside the in-process tests above: its folder and its output.
 */
const neverPrepared = (() => {
  const dir = Deno.makeTempDirSync({ prefix: "loadlab-never-prepared-" });
  // The workers' import waits a minute; their time limit is 30 s and twice the 100 ms request timeout.
  const output = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "run", script("slow_prepare.ts"), "--out-dir", `${dir}/out`],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", LOAD_TIMEOUT: "100ms" },
    signal: AbortSignal.timeout(120_000),
  }).output();
  output.catch(() => {}); // its own test reports it
  // Also where a filter leaves its test out: the process ends it with the file.
  addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
  return { dir, output };
})();

pool.test("load workers that never finish preparing: one line naming the cause and the fix, exit 2, results.json written", async () => {
  const { dir, output } = neverPrepared;
  const out = await output;
  const stderr = new TextDecoder().decode(out.stderr);
  assertEquals(out.code, 2, stderr);
  const lines = stderr.trim().split("\n").filter((l) => l.startsWith("loadlab run:"));
  assertEquals(lines.length, 1, stderr);
  ok(lines[0].includes("not prepared within 30.2 s") && lines[0].includes("top-level"), stderr);
  ok(!/LoadError|\n\s+at /.test(stderr), `no stack: ${stderr}`);
  assertEquals(JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`)).runs, []);
});

pool.test("loadlab run --iterations with --max-duration: a count that cannot finish ends there, its results written", () =>
  withTempDir(async (dir) => {
    const startedMs = performance.now();
    const out = await runLoadlab([
      "run",
      script("pending.ts"),
      "--iterations",
      "4",
      "-c",
      "2",
      "--max-duration",
      "1s",
      "--out-dir",
      dir,
    ]);
    // Start-up (the built-in target, the script's type check, cold on a fresh checkout) and the 1 s bound:
    // 90 s only fails a hang.
    ok(performance.now() - startedMs < 90_000, `ran ${performance.now() - startedMs} ms`);
    const [run] = JSON.parse(await Deno.readTextFile(`${dir}/results.json`)).runs;
    assertEquals([run.endedBy, run.incomplete, run.config.maxDurationMs], ["maxDuration", true, 1_000]);
    ok(
      out.stdout.includes("count not reached within its max duration") ||
        out.stderr.includes("count not reached within its max duration"),
      out.stdout + out.stderr,
    );
  }));

/** Signals a `loadlab run` as its load workers prepare (import the script): the exit within 2 s. */
for (const [signal, code] of [["SIGTERM", 143], ["SIGINT", 130]] as const) {
  pool.test(`${signal} while the load workers prepare ends loadlab within 2 s: exit ${code}, results.json written`, () =>
    withTempDir(async (dir) => {
      const log = `${dir}/log`;
      const child = new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", MAIN, "run", script("slow_prepare.ts"), "--out-dir", `${dir}/out`],
        stdout: "piped",
        stderr: "piped",
        env: { NO_COLOR: "1", SCRIPT_LOG: log },
        signal: AbortSignal.timeout(90_000),
      }).spawn();
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline && !(await Deno.readTextFile(log).catch(() => "")).includes("prepare")) {
        await new Promise((r) => setTimeout(r, 50));
      }
      const signalledMs = performance.now();
      child.kill(signal);
      const out = await child.output();
      const tookMs = performance.now() - signalledMs;
      assertEquals(out.code, code, new TextDecoder().decode(out.stderr));
      ok(tookMs < 2_000, `ended ${Math.round(tookMs)} ms after ${signal}`);
      assertEquals(JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`)).runs, []);
    }));
}
