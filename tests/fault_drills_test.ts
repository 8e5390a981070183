/**
 * @module
 * Fault drills end to end: a target killed mid-attack (1), a target restarted mid-attack on the
 * same port (2), and, through `loadlab run`, an external app that exits at once or never becomes ready
 * (4). The target is a real process (tests/fixtures/plain_server.ts) killed with SIGKILL; loads are
 * open-model, 100 req/s for a few seconds, on 127.0.0.1. Every loadlab started here carries a mark of
 * its own (`LOADLAB_RUN_ID`), so "nothing left running" is checked by scanning /proc for it. The drills
 * run at once, and drill 4's two apps side by side.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { withTempDir } from "./helpers.ts";
import { freePort } from "../system/ports.ts";
import { describeProcesses, waitUntilGone } from "./marked_processes.ts";
import type { ResultsFile } from "../results/mod.ts";
import { testPool } from "./fixtures/test_pool.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const SERVER = new URL("./fixtures/plain_server.ts", import.meta.url).pathname;

/** Starts the plain server on `port`; resolves once it listens, with a promise of its first request. */
async function startServer(port: number) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", SERVER, String(port)],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  const until = async (text: string) => {
    while (!seen.includes(text)) {
      const { value, done } = await lines.read();
      if (done) throw new Error(`server exited before "${text}"`);
      seen += value;
    }
  };
  await until("listening");
  return {
    firstRequest: () => until("first request"),
    async kill() {
      child.kill("SIGKILL");
      await child.status;
      await lines.cancel().catch(() => {});
    },
  };
}

/** `loadlab attack` in the background, marked; resolves to its exit code. */
function attack(args: string[], runId: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "attack", ...args],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", LOADLAB_RUN_ID: runId },
  }).spawn();
  return child.output().then((out) => ({ code: out.code, stderr: new TextDecoder().decode(out.stderr) }));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The drills at once: each has a port, a target and a mark of its own, and mostly waits on its run. */
const pool = testPool(3);

/** Indexes of intervals with errors, and of those with responses. */
function timeline(results: ResultsFile) {
  const intervals = results.runs[0].intervals;
  return {
    withErrors: intervals.flatMap((iv, i) => iv.errors > 0 ? [i] : []),
    withResponses: intervals.flatMap((iv, i) => iv.requests > 0 ? [i] : []),
  };
}

/**
 * Every interval counts its errors by kind, the kinds add up to its error count and, over the intervals,
 * to the run's; connect and reset errors fall only in intervals from `killIndex` (the kill's) on.
 */
function assertKindsAfterKill(run: ResultsFile["runs"][number], killIndex: number): void {
  const byKind: Record<string, number> = {};
  run.intervals.forEach((iv, i) => {
    const kinds = iv.errorKinds ?? {};
    assert(iv.errorKinds !== undefined, `interval ${i} records its errors by kind`);
    assertEquals(Object.values(kinds).reduce((a, b) => a + b, 0), iv.errors, `interval ${i}`);
    for (const [kind, n] of Object.entries(kinds)) byKind[kind] = (byKind[kind] ?? 0) + n;
    const dead = (kinds.connect ?? 0) + (kinds.reset ?? 0);
    assert(dead === 0 || i >= killIndex, `connect/reset in interval ${i}, before the kill at ${killIndex}`);
  });
  assertEquals(byKind, Object.fromEntries(Object.entries(run.errors).filter(([, n]) => (n ?? 0) > 0)));
}

pool.test("drill 1: target killed mid-attack: errors by kind from the kill on, results and report written, exit 0", async () => {
  await withTempDir(async (dir) => {
    const port = freePort();
    const server = await startServer(port);
    const runId = `drill1-${crypto.randomUUID()}`;
    const out = `${dir}/results.json`;
    const done = attack(
      [
        `http://127.0.0.1:${port}/`,
        "-R",
        "100",
        "-d",
        "4s",
        "--timeout",
        "3s",
        "-q",
        "--out",
        out,
        "--report",
        `${dir}/report.html`,
      ],
      runId,
    );
    await server.firstRequest();
    await sleep(1500);
    await server.kill();
    const { code, stderr } = await done;
    // Answers came before the kill: not "no response at all"; gate with --threshold.
    assertEquals(code, 0, stderr);
    const results: ResultsFile = JSON.parse(await Deno.readTextFile(out));
    const run = results.runs[0];
    assert((await Deno.stat(`${dir}/report.html`)).size > 0);
    const kinds = Object.entries(run.errors).filter(([, n]) => (n ?? 0) > 0).map(([k]) => k);
    assert(kinds.includes("connect"), `refused connects after the kill: ${JSON.stringify(run.errors)}`);
    assert(run.requests > 50, `answered before the kill: ${run.requests}`);
    const { withErrors, withResponses } = timeline(results);
    // Every error falls after the last answer but one interval (the kill lands inside one interval).
    assert(
      Math.min(...withErrors) >= Math.max(...withResponses) - 1,
      JSON.stringify({ withErrors, withResponses }),
    );
    assert(withErrors.length >= 4, `errors go on for the rest of the run: ${withErrors}`);
    assertKindsAfterKill(run, Math.max(...withResponses) - 1);
    assertEquals(await waitUntilGone(runId, 3000), []);
  });
});

pool.test("drill 2: target restarted mid-attack on the same port: a gap of errors, then answers again", async () => {
  await withTempDir(async (dir) => {
    const port = freePort();
    let server = await startServer(port);
    const runId = `drill2-${crypto.randomUUID()}`;
    const out = `${dir}/results.json`;
    const done = attack([
      `http://127.0.0.1:${port}/`,
      "-R",
      "100",
      "-d",
      "6s",
      "--timeout",
      "3s",
      "-q",
      "--out",
      out,
    ], runId);
    await server.firstRequest();
    await sleep(1000);
    await server.kill();
    await sleep(1000);
    server = await startServer(port);
    try {
      const { code, stderr } = await done;
      assertEquals(code, 0, stderr);
    } finally {
      await server.kill();
    }
    const results: ResultsFile = JSON.parse(await Deno.readTextFile(out));
    const { withErrors, withResponses } = timeline(results);
    assert(withErrors.length > 0, "the gap shows as errors");
    // The gap: the first block of consecutive intervals with errors.
    const gapStart = withErrors[0];
    let gapEnd = gapStart;
    while (withErrors.includes(gapEnd + 1)) gapEnd++;
    const detail = `answers ${withResponses}; errors ${withErrors}; ${
      JSON.stringify(results.runs[0].errorMessages)
    }`;
    assert(withResponses.some((i) => i < gapStart), `answers before the gap: ${detail}`);
    assert(withResponses.some((i) => i > gapEnd), `answers after the gap (recovery): ${detail}`);
    assert(gapEnd - gapStart <= 16, `the gap is about the time the target was down: ${detail}`);
    assert(results.runs[0].reconnects > 0, `reconnects ${results.runs[0].reconnects}`);
    assertEquals(await waitUntilGone(runId, 3000), []);
  });
});

/** An experiment with one external target running `code` under deno, and a short load. */
function externalExperiment(code: string, port: number, readyMs: number): string {
  return JSON.stringify({
    name: "drill4",
    targets: {
      app: {
        kind: "external",
        command: Deno.execPath(),
        args: ["eval", code],
        url: `http://127.0.0.1:${port}`,
        ready: { timeoutMs: readyMs },
      },
    },
    requests: ["/"],
    loads: { short: { model: "rate", rate: 10, duration: "1s" } },
  });
}

async function runMarked(file: string, outDir: string, runId: string) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "run", file, "--out-dir", outDir],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", LOADLAB_RUN_ID: runId },
  }).output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
}

pool.test("drill 4: an external app that exits at once, or never gets ready: exit 3, its code or the timeout, its stderr, nothing left", async () => {
  await withTempDir(async (dir) => {
    const cases = [
      {
        code: "console.error('fatal: no config file'); Deno.exit(7)",
        expect: /exited with code 7[\s\S]*fatal: no config file/,
      },
      {
        code: "console.error('warming caches forever'); setInterval(() => {}, 1000)",
        expect: /not ready after 1500 ms[\s\S]*warming caches forever/,
      },
    ];
    await Promise.all(cases.map(async (c, i) => {
      const file = `${dir}/exp${i}.json`;
      await Deno.writeTextFile(file, externalExperiment(c.code, freePort(), 1500));
      const runId = `drill4-${crypto.randomUUID()}`;
      const started = performance.now();
      const { code, stderr } = await runMarked(file, `${dir}/out${i}`, runId);
      assertEquals(code, 3, stderr);
      assert(c.expect.test(stderr), stderr);
      assert(performance.now() - started < 30_000, "within the readiness timeout, plus start-up");
      const left = await waitUntilGone(runId, 3000);
      assertEquals(left, [], describeProcesses(left));
    }));
  });
});
