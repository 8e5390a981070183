/**
 * @module
 * One real `loadlab run` of an experiment file written by a truth-table test: the file goes to a fresh
 * temporary folder, the run writes its results beside it, and the test gets the command's output and the
 * results file. The folder is removed afterwards, whatever happens.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { ResultsFile } from "../../results/mod.ts";
import { runLoadlab, withTempDir } from "../helpers.ts";

/** Runs `experiment` (YAML) with `args`, asserts exit 0, and hands stdout and results.json to `check`. */
export function runExperiment(
  experiment: string,
  args: string[],
  check: (stdout: string, results: ResultsFile) => void,
): Promise<void> {
  return withTempDir(async (dir) => {
    const file = join(dir, "experiment.yaml");
    await Deno.writeTextFile(file, experiment);
    const out = await runLoadlab(["run", file, ...args, "--out-dir", join(dir, "out")]);
    assert.equal(out.code, 0, out.stderr + out.stdout);
    check(out.stdout, JSON.parse(await Deno.readTextFile(join(dir, "out", "results.json"))));
  });
}
