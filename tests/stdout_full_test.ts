/**
 * @module
 * A stdout that takes no more (a full disk; /dev/full here) ends no command: the first print that fails
 * is said once on stderr, the rest of the printing is dropped, and the command goes on to write its
 * files; it exits 5 (an output, the printed one, was not written) where it would have exited 0. Before,
 * the first summary line threw: a stack trace, exit 1, and an experiment's later runs never ran.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { withTarget, withTempDir } from "./helpers.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const hasDevFull = (() => {
  try {
    return Deno.statSync("/dev/full").isCharDevice === true;
  } catch {
    return false;
  }
})();
if (!hasDevFull) console.log("skipped: no /dev/full on this system");

/** `loadlab ARGS > /dev/full` in `cwd`: exit code and stderr. */
async function toFullStdout(cwd: string, args: string[]) {
  const quoted = args.map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(" ");
  const out = await new Deno.Command("sh", {
    args: ["-c", `exec '${Deno.execPath()}' run -A '${MAIN}' ${quoted} > /dev/full`],
    cwd,
    env: { NO_COLOR: "1" },
    stderr: "piped",
    signal: AbortSignal.timeout(90_000),
  }).output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
}

Deno.test({
  name: "version, --help and schema to a full stdout: exit 5, one line naming stdout, no stack trace",
  ignore: !hasDevFull,
  fn: async () => {
    await withTempDir(async (dir) => {
      for (const args of [["version"], ["--help"], ["attack", "--help"], ["schema"]]) {
        const r = await toFullStdout(dir, args);
        assertEquals(r.code, 5, `${args.join(" ")}: ${r.stderr}`);
        ok(r.stderr.includes("stdout") && !r.stderr.includes("    at "), r.stderr);
        assertEquals(r.stderr.trim().split("\n").length, 1, r.stderr);
      }
    });
  },
});

Deno.test({
  name: "run to a full stdout runs every load and writes them all to results.json, exit 5",
  ignore: !hasDevFull,
  fn: async () => {
    await withTarget(async (url) => {
      await withTempDir(async (dir) => {
        const load = { model: "connections", connections: 1, duration: "300ms" };
        const experiment = { name: "full", targets: { t: { url } }, loads: { a: load, b: load, c: load } };
        await Deno.writeTextFile(`${dir}/e.json`, JSON.stringify(experiment));
        const r = await toFullStdout(dir, ["run", "e.json", "--out-dir", "out"]);
        assertEquals(r.code, 5, r.stderr);
        ok(!r.stderr.includes("    at "), r.stderr);
        const results = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`));
        assertEquals(results.runs.map((run: { name: string }) => run.name), ["t/a", "t/b", "t/c"]);
      });
    });
  },
});
