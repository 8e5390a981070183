import assert from "node:assert/strict";
import { EXIT, exitCodeOf, STRICT_FLAG } from "./exit_codes.ts";
import type { RunResult } from "../results/mod.ts";
import { attackHelp } from "./attack/flags.ts";
import { RUN_HELP } from "./run/args.ts";
import { VERDICT_FLAGS } from "../results/conclude/run_verdict.ts";

const read = (path: string) => Deno.readTextFileSync(new URL(`../${path}`, import.meta.url));
/** The text after `code` in a help's "Exit codes:" paragraph, up to the next code or its end. */
const helpCode = (help: string, code: number) =>
  help.slice(help.indexOf("Exit codes:")).split("\n\n")[0].replace(/\s+/g, " ")
    .match(new RegExp(`[:,] ${code} (.+?)(?=, \\d+ |$)`))?.[1];
/** The first cell after `code` in a markdown table row. */
const tableCode = (md: string, code: number) =>
  md.match(new RegExp(`^\\| ${code} +\\| ([^|]+)\\|`, "m"))?.[1];

/** A table's row for `code` with the rows that continue it (an empty first cell). */
const tableRows = (md: string, code: number) =>
  md.match(new RegExp(`^\\| ${code} [^]*?(?=^\\| \\d)`, "m"))?.[0];

Deno.test("every exit code is in the README's and the experiments doc's tables and in run's --help", () => {
  for (const code of Object.values(EXIT)) {
    assert.ok(tableCode(read("README.md"), code), `README.md has no row for ${code}`);
    assert.ok(tableCode(read("docs/EXPERIMENTS.md"), code), `docs/EXPERIMENTS.md has no row for ${code}`);
    if (code !== EXIT.ok) assert.ok(helpCode(RUN_HELP, code), `run --help says nothing of ${code}`);
    if (code !== EXIT.ok && code !== EXIT.targetFailed) {
      assert.ok(helpCode(attackHelp(), code), `attack --help says nothing of ${code}`);
      assert.equal(
        helpCode(attackHelp(), code),
        helpCode(RUN_HELP, code),
        `attack and run word ${code} apart`,
      );
    }
  }
});

Deno.test("--strict's help names every verdict flag it exits 6 for", () => {
  const help = STRICT_FLAG.help!.join(" ");
  for (const { kind } of VERDICT_FLAGS) {
    if (kind !== "aborted") assert.ok(help.includes(kind), `--strict's help leaves out ${kind}: ${help}`);
  }
});

Deno.test("exit 8 reads 'not judged' wherever it is described, with a verdict the noise withheld", () => {
  const where = {
    "attack --help": helpCode(attackHelp(), EXIT.baselineUnjudged),
    "run --help": helpCode(RUN_HELP, EXIT.baselineUnjudged),
    "README.md": tableRows(read("README.md"), EXIT.baselineUnjudged),
    "docs/EXPERIMENTS.md": tableRows(read("docs/EXPERIMENTS.md"), EXIT.baselineUnjudged),
  };
  for (const [doc, text] of Object.entries(where)) {
    const words = (text ?? "").replace(/[|\s]+/g, " ");
    assert.match(words, /not judged/, `${doc}: ${words}`);
    assert.match(words, /noise/, `${doc}: ${words}`);
    assert.match(words, /own waits/, `${doc}: ${words}`);
  }
});

Deno.test("no response at all exits 4, but a k6 script's run is judged by its thresholds, as k6 judges it", () => {
  const refused = {
    name: "app/k6",
    requests: 0,
    errors: { connect: 3 },
    errorMessages: { connect: { "Connection refused (os error 111)": 3 } },
    droppedSends: 0,
    config: {},
  } as unknown as RunResult;
  const outcome = { command: "run", runs: [refused], stoppedWith: null, written: true, strict: false };
  const said: string[] = [];
  const error = console.error;
  console.error = (line: string) => said.push(line);
  try {
    assert.equal(exitCodeOf({ ...outcome, thresholds: [] }), EXIT.noResponse);
    assert.equal(exitCodeOf({ ...outcome, thresholds: [], k6: { failed: 0 } }), EXIT.ok);
    assert.equal(exitCodeOf({ ...outcome, thresholds: [], k6: { failed: 1 } }), EXIT.thresholdFailed);
    const failed = [{ expression: "http_req_failed: rate<0.01", run: "app/k6", actual: 1, ok: false }];
    assert.equal(exitCodeOf({ ...outcome, thresholds: failed, k6: { failed: 0 } }), EXIT.thresholdFailed);
  } finally {
    console.error = error;
  }
  // Each time the terminal still says that nothing was answered.
  assert.equal(said.filter((l) => /no response at all: .*connect: 3/.test(l)).length, 4, said.join("\n"));
});
