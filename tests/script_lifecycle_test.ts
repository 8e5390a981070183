/**
 * A session script's setup() and teardown() misbehaving, through the real CLI (`loadlab run script.ts`
 * against the built-in target): a setup that throws, returns what cannot be cloned, exits its isolate,
 * never settles or never yields ends the run before any load with exit 2 and one line saying why (never
 * a stack, never exit 0 or 1); a module that exits at its top level the same; SIGTERM during setup ends
 * loadlab at once with 143 and results.json written; a teardown that throws, exits or hangs costs a
 * warning, never the run. One fixture (lifecycle_faults.ts) picks its fault from the environment, so
 * the type check runs once.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { withTempDir } from "./helpers.ts";
import { testPool } from "./fixtures/test_pool.ts";
import { runVerdict } from "../results/conclude/run_verdict.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const FAULTS = new URL("./fixtures/scripts/lifecycle_faults.ts", import.meta.url).pathname;
const EXITING = new URL("./fixtures/scripts/exiting.ts", import.meta.url).pathname;
const decoder = new TextDecoder();

/** `loadlab run <script> --out-dir <dir>/out` with `env`; a hang fails the test instead of holding it. */
function start(script: string, dir: string, env: Record<string, string>) {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "run", script, "--out-dir", `${dir}/out`],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", ...env },
    signal: AbortSignal.timeout(90_000),
  }).spawn();
}

async function run(
  script: string,
  env: Record<string, string>,
  check: (out: Outcome) => void | Promise<void>,
) {
  await withTempDir(async (dir) => {
    const out = await start(script, dir, env).output();
    await check({
      code: out.code,
      stdout: decoder.decode(out.stdout),
      stderr: decoder.decode(out.stderr),
      dir,
    });
  });
}

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
  dir: string;
}

/** Three cases at once: each is a `loadlab` process of its own, mostly waiting on its script's timers. */
const pool = testPool(3);

const runsIn = async (dir: string) => JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`)).runs;

for (
  const [fault, says] of [
    ["throw", "setup() failed: no token (lifecycle_faults.ts:17); no load was sent"],
    ["function", "setup() failed: its value cannot cross to the load workers"],
    ["exit", "setup() ended the script's isolate (Deno.exit or process.exit) before it returned"],
    ["post", "setup() failed: postMessage() is loadlab's own channel from this isolate to its main one"],
  ]
) {
  pool.test(`a setup() that fails (${fault}) ends the run before any load: exit 2, one line`, () =>
    run(FAULTS, { SCRIPT_SETUP: fault }, ({ code, stderr }) => {
      assertEquals(code, 2, stderr);
      const lines = stderr.split("\n").filter((l) => l.startsWith("loadlab run: "));
      ok(lines.some((l) => l.includes(says)), stderr);
      ok(!stderr.includes("    at "), `no stack: ${stderr}`);
    }));
}

// The same limit bounds loading the script: when a busy machine's loading outlasts it (the fixture's log
// never says setup started), the message names the loading and the case runs again with the limit doubled.
pool.test("a setup() that never yields is ended at setupTimeout: exit 2 naming the limit", async () => {
  for (const limitS of [3, 6, 12]) {
    const log = await Deno.makeTempFile();
    let started = false;
    await run(FAULTS, { SCRIPT_SETUP: "busy", SETUP_TIMEOUT: `${limitS}s`, SCRIPT_LOG: log }, async (out) => {
      assertEquals(out.code, 2, out.stderr);
      started = (await Deno.readTextFile(log)).includes("setup");
      const step = started ? "setup()" : "loading the script";
      ok(
        out.stderr.includes(`${step} did not end within ${limitS} s (setupTimeout sets the limit)`),
        out.stderr,
      );
    });
    await Deno.remove(log);
    if (started) return;
  }
  throw new Error("loading the script outlasted a setupTimeout of 12 s: setup() never started");
});

pool.test("a module that exits at its top level is refused before any load: exit 2", () =>
  run(EXITING, { SCRIPT_EXIT_IN: "module" }, ({ code, stderr }) => {
    assertEquals(code, 2, stderr);
    ok(stderr.includes("exiting.ts: its module ended its isolate (Deno.exit or process.exit"), stderr);
  }));

/** Starts the faults script, waits for `phase` to start (its SCRIPT_LOG line), sends SIGTERM: the outcome. */
async function termDuring(phase: string, env: Record<string, string>, dir: string) {
  const log = `${dir}/log`;
  const child = start(FAULTS, dir, { ...env, SCRIPT_LOG: log });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && !(await Deno.readTextFile(log).catch(() => "")).includes(phase)) {
    await new Promise((r) => setTimeout(r, 50));
  }
  const signalledMs = performance.now();
  child.kill("SIGTERM");
  const out = await child.output();
  assertEquals(out.code, 143, decoder.decode(out.stderr));
  // Nothing to wait for once the phase is cut (2 s, as a supervisor's stop asks); 20 s only fails a hang.
  ok(performance.now() - signalledMs < 20_000, `${performance.now() - signalledMs} ms after SIGTERM`);
  return { stdout: decoder.decode(out.stdout) };
}

pool.test("SIGTERM while setup() waits on a promise nothing settles: exit 143 at once, results.json written", () =>
  withTempDir(async (dir) => {
    await termDuring("setup", { SCRIPT_SETUP: "hang" }, dir);
    const { runs, complete, stoppedIn } = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`));
    assertEquals({ runs, complete, stoppedIn }, {
      runs: [],
      complete: false,
      stoppedIn: "setup() (run app/l)",
    });
  }));

pool.test("SIGTERM while teardown() never yields: exit 143 at once, the run's results written", () =>
  withTempDir(async (dir) => {
    const { stdout } = await termDuring("teardown", { SCRIPT_TEARDOWN: "busy" }, dir);
    const [result] = await runsIn(dir);
    assertEquals(result.requests, 4);
    ok(stdout.includes("warning: teardown() was stopped before it ended"), stdout);
  }));

for (const fault of ["throw", "exit", "hang"]) {
  pool.test(`a teardown() that ${fault}s costs a warning, never the run`, () =>
    run(FAULTS, { SCRIPT_TEARDOWN: fault, TEARDOWN_TIMEOUT: "500ms" }, async ({ code, stdout, dir }) => {
      assertEquals(code, 0, stdout);
      const [result] = await runsIn(dir);
      assertEquals(result.requests, 4);
      ok(
        typeof result.teardownError === "string" && stdout.includes(`warning: ${result.teardownError}`),
        stdout,
      );
    }));
}

pool.test("script errors flag the run as every error kind does: --strict exits 6", () =>
  withTempDir(async (dir) => {
    const script = new URL("./fixtures/scripts/failing.ts", import.meta.url).pathname;
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", MAIN, "run", script, "--out-dir", `${dir}/out`, "--strict"],
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
      signal: AbortSignal.timeout(90_000),
    }).output();
    const [stdout, stderr] = [decoder.decode(out.stdout), decoder.decode(out.stderr)];
    assertEquals(out.code, 6, stdout + stderr);
    // The run's own verdict, named whole: a busy machine's run is generator-bound too.
    const { label } = runVerdict((await runsIn(dir))[0]);
    ok(label.endsWith("errors 49% (script 19)") && stderr.includes(`is flagged: ${label}`), stderr);
  }));
