/**
 * results.json and report.html are written even when the process ran out of file descriptors during
 * the load (files a session script leaked, sockets of a load worker ended while stuck): the experiment's
 * output holds one in reserve from before the load. A child process under a low open-file limit opens
 * the output, uses up every other descriptor, then writes.
 */
import { ok } from "node:assert/strict";
import { withTempDir } from "./helpers.ts";

const CHILD = new URL("./fixtures/outputs_after_emfile.ts", import.meta.url).pathname;

Deno.test("the results are written when the process has no file descriptor left", () =>
  withTempDir(async (dir) => {
    const out = await new Deno.Command("bash", {
      args: ["-c", 'ulimit -n 1024 && exec "$0" run -A "$1" "$2"', Deno.execPath(), CHILD, dir],
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(60_000),
    }).output();
    const stdout = new TextDecoder().decode(out.stdout);
    ok(stdout.startsWith("written after "), `${out.code}: ${stdout}${new TextDecoder().decode(out.stderr)}`);
    const results = JSON.parse(await Deno.readTextFile(`${dir}/results.json`));
    ok(results.experiment.name === "emfile");
  }));
