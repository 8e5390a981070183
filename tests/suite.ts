/**
 * @module
 * `deno task test` and `deno task test:quick`.
 *
 * The whole suite: the parallel pass (all but `tests/presets`, `tests/timing` and the files named in
 * `BESIDE_STUDIES`, `BESIDE_HTTP2`, `COMPUTING_BESIDE` and `LONGEST_WAITING`); then the preset studies one
 * at a time, and beside them the timing tests one at a time (they pass with both cores busy), then the
 * `BESIDE_STUDIES` files (mostly waiting) two at a time, and the `COMPUTING_BESIDE` and `LONGEST_WAITING`
 * files two at a time, each a chain of its own; then the files in `ALONE`, one at a time; then the
 * no-orphans check. Beside another study a study can miss its findings. The files beside the studies print
 * when the studies end, so no line of one splits a line of the other.
 * Arguments go to every pass (`--filter`) but the no-orphans check.
 *
 * A file whose imports reach node:http2 runs in a process of its own: a native abort inside Deno's HTTP/2
 * binding ends the whole process, and then takes only that file, named. Those of the first pass (they wait
 * more than they compute) run one at a time beside the studies, beside the timing tests and the files named
 * below, and then the files in `BESIDE_HTTP2`, two at a time; those of test:quick after its end-to-end
 * files; a study's, after the studies.
 *
 * `--quick` (the edit loop) runs every test file outside `tests/` and `bench/` (the unit tests beside their
 * modules) but the slow ones named below, by file name wherever they live, in a parallel pass, and beside
 * it, two at a time, the end-to-end files named below (in one pass, Deno would start them, at the least
 * depth, last); the arguments after it go to `deno test`.
 *
 * Every test file is type-checked once, in one `deno check` beside the first pass (its output printed
 * after that pass), and the passes run unchecked: a pass that checks its own files checks again the
 * modules an earlier pass checked (10 s of CPU on a cold cache).
 *
 * Test files of a parallel pass share one process's environment, so none changes it (tests/house_test.ts
 * holds them to it). loadlab's cache is a fresh folder for the whole suite (`XDG_CACHE_HOME`): every
 * conversion a test reads is this tree's, never one an older tree cached under the same version; Deno's
 * cache (`DENO_DIR`) and Go's build cache (`GOCACHE`) are pinned, as each would otherwise move into that
 * folder too (grpc-go's greeter built from nothing: 50 CPU-s and minutes of a slot). One file more at once
 * than CPUs (`DENO_JOBS` to change): many wait on sockets and timeouts.
 */
import { basename, dirname, join, relative } from "node:path";

/**
 * Unit test files that take seconds each (sockets held to timeouts, floods, every transport): by name, or by
 * path for a name other folders share. The last are real runs of 40-110 s a file (HTTP/3, ghz's runs, the
 * cross-checks against Artillery itself).
 */
const SLOW = [
  /hostile/,
  /flood/,
  /^conformance_test\.ts$/,
  /^response_rules_test\.ts$/,
  /^artillery_.*_test\.ts$/,
  /grpc_test\.ts$/,
  /^(close|fd|node_ws|flow|ws_steps|lost_requests|warmup_sink|generator_warmup)_test\.ts$/,
  /^(runtime_telemetry|redis_telemetry|k6_summary)_test\.ts$/,
  /^(runner\/http\/h3\/slot|cli\/ghz\/command|scenarios\/artillery\/(sessions|ws))_test\.ts$/,
];

/**
 * One of each end-to-end run: an attack, an experiment file, a session script, a k6 script, the report;
 * the longest first.
 */
const END_TO_END = [
  "k6_scripts_test.ts",
  "script_sessions_test.ts",
  "attack_cli_test.ts",
  "import_graph_test.ts",
  "report_browser_test.ts",
  "results_file_test.ts",
  "run_checks_test.ts",
];

/** Files that mostly wait on their runs (sleeps, timeouts, repeats, a peer's run): by path. */
const BESIDE_STUDIES = [
  "tests/baseline_gate_test.ts",
  "tests/baseline_gate_rule_test.ts",
  "tests/baseline_gate_trial_test.ts",
  "tests/threshold_abort_test.ts",
  "tests/scale_out_test.ts",
  "tests/run_end_bound_test.ts",
  "tests/artillery_endpoints_test.ts",
  "tests/tls_handshake_hostile_test.ts",
];
/**
 * Files that mostly wait, on Artillery 2's own runs or raw servers' breaks and timeouts (6-15% of a core
 * alone): two at a time beside the studies, after the node:http2 files, a chain that leaves them over two
 * minutes. By path.
 */
const BESIDE_HTTP2 = [
  "scenarios/artillery/sessions_test.ts",
  "scenarios/artillery/ws_test.ts",
  "runner/http/h2/run_end_test.ts",
  "runner/http/ws/hostile_test.ts",
  "runner/http/ws/conformance_test.ts",
  "runner/http/ws/fd_test.ts",
];
/**
 * The first pass's two costliest files by CPU (50-65 CPU-s each alone, a child per run), which judge counts,
 * verdicts and output rather than times: two at a time beside the studies, a chain of its own, on the core
 * the studies' phase leaves idle; the first pass is bound by its CPU. By path.
 */
const COMPUTING_BESIDE = ["tests/locust_run_test.ts", "tests/k6_verdict_test.ts"];
/**
 * The first pass's longest files by wall that mostly wait (8-11% of a core alone: 240 runs' starts and
 * timeouts, ghz's own runs): two at a time beside the studies, a chain of its own, about two minutes of the
 * studies' four. By path.
 */
const LONGEST_WAITING = ["runner/load/conformance_test.ts", "cli/ghz/command_test.ts"];
/** Files at once beside another pass: the studies' phase uses under half of two cores. */
const BESIDE_JOBS = "2";

const ROOT = new URL("..", import.meta.url).pathname;
const TIMING = "tests/timing";
const PRESETS = "tests/presets";
/**
 * Files that run with nothing beside them: beside other work cpu-sleep's single-threaded target answered
 * nothing at 10 ms of CPU per request, Express's fib(23) cost 1.6 times its /json's CPU, not over 2, and the
 * paced-latency tables, which hold a run's p50 to 1 ms over the target's own, read 1.2 ms over at the load
 * average of 12 the studies' phase makes (they pass beside two busy loops, load 3).
 */
const ALONE = [
  `${PRESETS}/cpu_sleep_test.ts`,
  `${PRESETS}/frameworks_test.ts`,
  `${TIMING}/paced_latency_test.ts`,
  `${TIMING}/paced_protocols_test.ts`,
];
const NO_ORPHANS = `${TIMING}/zz_no_orphans_test.ts`;
const UNIT_ROOTS_LEFT_OUT = new Set(["tests", "bench", "node_modules", "dist", "out"]);
const NOT_WALKED = new Set(["node_modules", "dist", "out"]);

const env = {
  LOADLAB_RUN_ID: Deno.env.get("LOADLAB_RUN_ID") ?? `suite-${Date.now()}-${Deno.pid}`,
  DENO_JOBS: Deno.env.get("DENO_JOBS") ?? String(navigator.hardwareConcurrency + 1),
  DENO_DIR: Deno.env.get("DENO_DIR") ?? await denoDir(),
  ...await goCache(),
  XDG_CACHE_HOME: Deno.makeTempDirSync({ prefix: "loadlab-suite-cache-" }),
};

async function denoDir(): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stderr: "inherit" })
    .output();
  return JSON.parse(new TextDecoder().decode(out.stdout)).denoDir;
}

/** `GOCACHE` as Go finds it now, where `go` is on PATH. */
async function goCache(): Promise<{ GOCACHE?: string }> {
  const set = Deno.env.get("GOCACHE");
  if (set !== undefined) return { GOCACHE: set };
  try {
    const out = await new Deno.Command("go", { args: ["env", "GOCACHE"], stderr: "null" }).output();
    return out.success ? { GOCACHE: new TextDecoder().decode(out.stdout).trim() } : {};
  } catch {
    return {};
  }
}

async function deno(args: string[]): Promise<boolean> {
  return (await new Deno.Command(Deno.execPath(), { args, cwd: ROOT, env }).spawn().status).success;
}

/** A relative module a file imports (statically or by a literal `import()`), or node:http2 itself. */
const IMPORT = /(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+\.ts|node:http2)"/g;
const reachesHttp2 = new Map<string, boolean>();

/** Whether `file` (from the root) imports node:http2, itself or through the modules it imports. */
function usesHttp2(file: string): boolean {
  const known = reachesHttp2.get(file);
  if (known !== undefined) return known;
  reachesHttp2.set(file, false);
  let text = "";
  try {
    text = Deno.readTextFileSync(join(ROOT, file));
  } catch {
    return false;
  }
  const uses = [...text.matchAll(IMPORT)].some(([, to]) =>
    to === "node:http2" || usesHttp2(relative(ROOT, join(ROOT, dirname(file), to)))
  );
  reachesHttp2.set(file, uses);
  return uses;
}

/** `files` whose process would load node:http2, and the others. */
function splitHttp2(files: string[]): [string[], string[]] {
  return [files.filter(usesHttp2), files.filter((f) => !usesHttp2(f))];
}

/** `deno args file` for each of `files`, a process each; one a signal ended is named with its file. */
async function eachAlone(args: string[], files: string[]): Promise<boolean> {
  let ok = true;
  for (const file of files) {
    const status = await new Deno.Command(Deno.execPath(), { args: [...args, file], cwd: ROOT, env }).spawn()
      .status;
    if (status.signal !== null) console.error(`${file}: its test process died of ${status.signal}`);
    ok = status.success && ok;
  }
  return ok;
}

function* testFiles(dir: string): Generator<string> {
  for (const entry of Deno.readDirSync(dir)) {
    if (entry.name.startsWith(".") || NOT_WALKED.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* testFiles(path);
    else if (entry.name.endsWith("_test.ts")) yield relative(ROOT, path);
  }
}

async function quick(denoTestArgs: string[]): Promise<boolean> {
  const all = [...testFiles(ROOT)].sort();
  const [unitHttp2, unit] = splitHttp2(
    all.filter((f) =>
      !UNIT_ROOTS_LEFT_OUT.has(f.split("/")[0]) &&
      !SLOW.some((slow) => slow.test(basename(f)) || slow.test(f))
    ),
  );
  const endToEnd = END_TO_END.map((name) => {
    const found = all.filter((f) => f.startsWith("tests/") && basename(f) === name);
    if (found.length !== 1) {
      throw new Error(
        `${name} names ${found.length} files under tests/: name one in END_TO_END (tests/suite.ts)`,
      );
    }
    return found[0];
  });
  console.error(
    `test:quick: ${unit.length} unit and ${endToEnd.length} end-to-end of ${all.length} test files, ~3 min`,
  );
  const test = (files: string[]) => ["test", "-A", "--no-check", "--parallel", ...denoTestArgs, ...files];
  const check = held(["check", ...unit, ...unitHttp2, ...endToEnd]);
  const passed = await besideHeld(test(unit), [test(endToEnd), ...unitHttp2.map((f) => test([f]))]);
  return printed(await check) && passed;
}

async function whole(denoTestArgs: string[]): Promise<boolean> {
  const all = [...testFiles(ROOT)].sort();
  const under = (dir: string) => all.filter((f) => f.startsWith(`${dir}/`));
  const timing = under(TIMING).filter((f) => f !== NO_ORPHANS && !ALONE.includes(f));
  const [studiesHttp2, studies] = splitHttp2(under(PRESETS).filter((f) => !ALONE.includes(f)));
  const [http2, parallel] = splitHttp2(
    all.filter((f) =>
      !f.startsWith(`${PRESETS}/`) && !f.startsWith(`${TIMING}/`) &&
      ![...BESIDE_STUDIES, ...BESIDE_HTTP2, ...COMPUTING_BESIDE, ...LONGEST_WAITING].includes(f)
    ),
  );
  const test = (args: string[]) => ["test", "-A", "--no-check", ...denoTestArgs, ...args];
  console.error(`test: ${all.length} test files, ~18 min on 2 idle cores (test:quick for the edit loop)`);
  const check = held(["check", ...all]);
  const pass = await deno(test(["--parallel", ...parallel]));
  const beside = [
    [test(timing), test(["--parallel", ...BESIDE_STUDIES])],
    [...http2.map((f) => test([f])), test(["--parallel", ...BESIDE_HTTP2])],
    [test(["--parallel", ...COMPUTING_BESIDE])],
    [test(["--parallel", ...LONGEST_WAITING])],
  ];
  const passed = printed(await check) && pass && await besideHeld(test(studies), ...beside) &&
    await eachAlone(test([]), studiesHttp2) && await deno(test(ALONE));
  return await deno(["test", "-A", "--no-check", NO_ORPHANS]) && passed;
}

/**
 * Runs `live` and, at once, each chain of `held` passes, a chain's one after another (`BESIDE_JOBS` files at
 * once in a parallel one); their output is printed when all have ended, chain by chain.
 */
async function besideHeld(live: string[], ...chains: string[][][]): Promise<boolean> {
  const heldRuns = Promise.all(chains.map(async (passes) => {
    const outs: [string[], Deno.CommandOutput][] = [];
    for (const args of passes) outs.push([args, await held(args)]);
    return outs;
  }));
  const liveOk = await deno(live);
  let heldOk = true;
  for (const [args, out] of (await heldRuns).flat()) heldOk = printed(out, args) && heldOk;
  return liveOk && heldOk;
}

/** `deno args` with its output held (`BESIDE_JOBS` files at once in a parallel pass). */
function held(args: string[]): Promise<Deno.CommandOutput> {
  const piped = { stdout: "piped", stderr: "piped" } as const;
  const heldEnv = { ...env, DENO_JOBS: BESIDE_JOBS };
  return new Deno.Command(Deno.execPath(), { args, cwd: ROOT, env: heldEnv, ...piped }).output();
}

/** Prints what a held command (`args`) printed, and the signal that ended it; whether it succeeded. */
function printed(out: Deno.CommandOutput, args: string[] = []): boolean {
  for (const [bytes, stream] of [[out.stdout, Deno.stdout], [out.stderr, Deno.stderr]] as const) {
    for (let n = 0; n < bytes.length;) n += stream.writeSync(bytes.subarray(n));
  }
  const files = args.filter((a) => a.endsWith("_test.ts"));
  const named = files.length === 1 ? files[0] : "a held pass";
  if (out.signal !== null) console.error(`${named}: its test process died of ${out.signal}`);
  return out.success;
}

const quickMode = Deno.args[0] === "--quick";
const passed = await (quickMode ? quick(Deno.args.slice(1)) : whole(Deno.args));
Deno.removeSync(env.XDG_CACHE_HOME, { recursive: true });
Deno.exit(passed ? 0 : 1);
