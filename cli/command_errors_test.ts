import assert from "node:assert/strict";
import { runCommand } from "./command_errors.ts";
import { HelpRequested, UsageError } from "./usage_error.ts";
import { ExperimentError } from "../scenarios/experiment_error.ts";
import { TargetFailedError } from "../scenarios/run/targets.ts";
import { TargetError } from "../targets/errors.ts";
import { ConfigError } from "../validation/config_error.ts";
import { OutputError } from "../system/output_file.ts";
import { ResultsFileError } from "../results/mod.ts";
import { MergeError } from "../results/merge/shards.ts";

/** The exit code of a command that throws `err`, and what it printed to stdout and stderr. */
async function outcome(err: unknown): Promise<{ code: number; out: string[]; errors: string[] }> {
  const out: string[] = [], errors: string[] = [];
  const { log, error } = console;
  console.log = (line: string) => out.push(line);
  console.error = (line: string) => errors.push(line);
  try {
    const code = await runCommand("demo", () => {
      throw err;
    });
    return { code, out, errors };
  } finally {
    Object.assign(console, { log, error });
  }
}

Deno.test("runCommand: a command's return value is its exit code", async () => {
  assert.equal(await runCommand("demo", () => 6), 6);
  assert.equal(await runCommand("demo", () => Promise.resolve(0)), 0);
});

Deno.test("runCommand: each error the commands throw maps to its line and exit code", async () => {
  assert.deepEqual(await outcome(new HelpRequested("Usage: x")), { code: 0, out: ["Usage: x"], errors: [] });
  assert.deepEqual(await outcome(new UsageError("-c 0: must be >= 1;\n  e.g. -c 10")), {
    code: 2,
    out: [],
    errors: ["loadlab demo: -c 0: must be >= 1; e.g. -c 10"],
  });
  const config = new ConfigError([{ path: "connections", message: "must be >= 1" }]);
  assert.deepEqual((await outcome(config)).errors, [`loadlab demo: ${config.message}`]);
  assert.equal((await outcome(new ResultsFileError("a.json: not a results file"))).code, 2);
  const experiment = new ExperimentError(
    [{ path: "repeats", message: "must be >= 1" }, { path: "name", message: "missing" }],
    { file: "s.yaml" },
  );
  assert.deepEqual(await outcome(experiment), { code: 2, out: [], errors: experiment.message.split("\n") });
  assert.deepEqual((await outcome(new MergeError(["shard 1/2 missing", "names differ"]))).errors, [
    "loadlab demo: shard 1/2 missing",
    "loadlab demo: names differ",
  ]);
  assert.deepEqual(await outcome(new OutputError("--junit x/j.xml: cannot write: Not a directory")), {
    code: 5,
    out: [],
    errors: ["loadlab demo: --junit x/j.xml: cannot write: Not a directory"],
  });
  assert.equal((await outcome(new TargetError("port 80 in use", "free it"))).code, 3);
  assert.equal((await outcome(new TargetFailedError("web", "web exited", ""))).code, 3);
});

Deno.test("runCommand: lines are terminal-safe and a URL's password is redacted", async () => {
  const [line] = (await outcome(new UsageError("http://u:hunter2@127.0.0.1/ \x1b[31mred"))).errors;
  assert.ok(!line.includes("hunter2") && !line.includes("\x1b"), line);
});

Deno.test("runCommand: anything else is a bug, rethrown", async () => {
  await assert.rejects(outcome(new TypeError("x is undefined")), TypeError);
  await assert.rejects(outcome("a string"), (e) => e === "a string");
});
