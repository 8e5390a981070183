/**
 * @module
 * `deno task test:quick`: the edit loop's tests, in a few minutes on two cores. Every test file outside
 * `tests/` and `bench/` (the unit tests beside their modules) but the slow ones named below, plus the
 * end-to-end files named below, found by file name wherever they live, in one parallel `deno test`.
 * One file more at once than CPUs, as `deno task test` runs. Arguments after the task go to `deno test` (`deno task test:quick --filter attack`).
 */
import { basename, join, relative } from "node:path";

/** Unit test files that take seconds each (sockets held to timeouts, floods, every transport): by name. */
const SLOW = [
  /hostile/,
  /flood/,
  /^conformance_test\.ts$/,
  /^response_rules_test\.ts$/,
  /^artillery_.*_test\.ts$/,
  /grpc_test\.ts$/,
  /^(close|fd|node_ws|flow|ws_steps|lost_requests|warmup_sink|generator_warmup)_test\.ts$/,
  /^(runtime_telemetry|redis_telemetry|k6_summary)_test\.ts$/,
];

/** One of each end-to-end run: an attack, an experiment file, a session script, a k6 script, the report. */
const END_TO_END = [
  "attack_cli_test.ts",
  "run_checks_test.ts",
  "script_sessions_test.ts",
  "k6_scripts_test.ts",
  "results_file_test.ts",
  "report_browser_test.ts",
  "import_graph_test.ts",
];

const ROOT = new URL("..", import.meta.url).pathname;
const UNIT_ROOTS_LEFT_OUT = new Set(["tests", "bench", "node_modules", "dist", "out"]);

function* testFiles(dir: string): Generator<string> {
  for (const entry of Deno.readDirSync(dir)) {
    if (entry.name.startsWith(".")) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* testFiles(path);
    else if (entry.name.endsWith("_test.ts")) yield relative(ROOT, path);
  }
}

const all = [...testFiles(ROOT)].sort();
const unit = all.filter((f) =>
  !UNIT_ROOTS_LEFT_OUT.has(f.split("/")[0]) && !SLOW.some((slow) => slow.test(basename(f)))
);
const endToEnd = END_TO_END.map((name) => {
  const found = all.filter((f) => f.startsWith("tests/") && basename(f) === name);
  if (found.length !== 1) {
    console.error(`tests/quick.ts: ${name} names ${found.length} files under tests/; name one in END_TO_END`);
    Deno.exit(1);
  }
  return found[0];
});

const files = [...unit, ...endToEnd];
console.error(
  `test:quick: ${files.length} of ${all.length} test files (${unit.length} unit, ${endToEnd.length} end-to-end)`,
);
const { code } = await new Deno.Command(Deno.execPath(), {
  args: ["test", "-A", "--parallel", ...Deno.args, ...files],
  cwd: ROOT,
  env: { DENO_JOBS: Deno.env.get("DENO_JOBS") ?? String(navigator.hardwareConcurrency + 1) },
}).spawn().status;
Deno.exit(code);
