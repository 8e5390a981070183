/**
 * @module
 * `attack` keeps what it measured when it cannot finish as planned: stopped by Ctrl-C, its `-o`
 * results say so (the run `incomplete`, the file `complete: false`, as `run` marks them); and when the
 * disk under `--log` fills up mid-run, the `-o` results (on another disk) are still written, then exit
 * 5 names the log. The full disk is a real 8 MiB tmpfs (root; skipped with the reason elsewhere, run on
 * CI=true). The target is the real built-in one.
 */
import { deepStrictEqual as assertEquals, match as assertMatch, ok as assert } from "node:assert/strict";
import { startTarget } from "../targets/start.ts";
import { eventually, fillDisk, MAIN, tmpfsUnavailable, withTmpfs } from "./fault_drill_helpers.ts";
import { withTempDir } from "./helpers.ts";

const noTmpfs = tmpfsUnavailable();
const onCi = Deno.env.get("CI") === "true";
if (noTmpfs && !onCi) console.log(`skipped: the full-disk case needs a tmpfs: ${noTmpfs}`);

function attack(args: string[]) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "attack", ...args, "-q"],
    stdout: "null",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  return { child, output: child.output() };
}

/**
 * Waits until the run has created its request log (its header line): Ctrl-C is handled by then and the
 * load is starting. A fixed sleep was not certain on a busy machine, where starting loadlab from a cold
 * cache can outlast it (the disk then filled before the log was created, and nothing was measured). The
 * log's lines are written in 60 KiB chunks, so the first one may only come at the end of a slow run.
 */
async function untilStarted(log: string): Promise<void> {
  const started = async () => (await Deno.readTextFile(log).catch(() => "")).startsWith("code;");
  assert(await eventually(started, 60_000), `${log} not created within 60 s`);
}

Deno.test("attack stopped by SIGINT: exit 130, -o results marked incomplete", async () => {
  const target = await startTarget({ kind: "builtin" });
  try {
    await withTempDir(async (dir) => {
      const log = `${dir}/log.csv`;
      const run = attack([
        `${target.url}/json`,
        "-c",
        "2",
        "-d",
        "60s",
        "--log",
        log,
        "-o",
        `${dir}/results.json`,
      ]);
      // The log is opened while the workers prepare, and a stop then sends no load: wait for answered
      // requests (the log past its header line) so the stop lands in the load.
      const answered = async () => (await Deno.stat(log).catch(() => ({ size: 0 }))).size > 64;
      assert(await eventually(answered, 60_000), `${log}: no request logged within 60 s`);
      run.child.kill("SIGINT");
      const { code, stderr } = await run.output;
      assertEquals(code, 130, new TextDecoder().decode(stderr));
      const results = JSON.parse(await Deno.readTextFile(`${dir}/results.json`));
      assertEquals(results.complete, false);
      assertEquals(results.runs[0].incomplete, true);
    });
  } finally {
    await target.stop();
  }
});

Deno.test({
  name:
    "attack --log filling the disk mid-run: the -o results are still written, exit 5 names the log, says the fix",
  ignore: noTmpfs !== null && !onCi,
  async fn() {
    const target = await startTarget({ kind: "builtin" });
    try {
      await withTmpfs(async (disk, dir) => {
        const log = `${disk}/log.csv`;
        const out = `${dir}/results.json`;
        const run = attack([`${target.url}/json`, "-c", "2", "-d", "3s", "--log", log, "-o", out]);
        await untilStarted(log);
        await fillDisk(disk);
        const { code, stderr } = await run.output;
        const text = new TextDecoder().decode(stderr);
        assertEquals(code, 5, text);
        assertMatch(text, new RegExp(`cannot write ${log}: .*os error 28.*; free space on that disk`));
        const results = JSON.parse(await Deno.readTextFile(out));
        assert(results.runs[0].requests > 0, "the measured requests are kept");
      });
    } finally {
      await target.stop();
    }
  },
});
