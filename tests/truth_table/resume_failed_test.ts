/**
 * Truth table, `run --resume` after a target that got no response: the first run of a pair finds
 * nothing listening on the second target's port (`failed`, exit 4); the target is then started and the
 * experiment resumed. A run without any response measured no target, so `--resume` runs it again as it
 * does an incomplete one (it was kept as complete: the resume ran nothing, printed no run line and
 * exited 4 again), and says what it kept from the file.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { runLoadlab, withTempDir } from "../helpers.ts";
import { freePort } from "../../system/ports.ts";

const experiment = (port: number) =>
  `name: resume\ntargets:\n  good: { kind: builtin }\n  late: { url: "http://127.0.0.1:${port}" }\n` +
  `loads:\n  one: { model: count, requests: 10, connections: 2, timeout: 2s }\n`;

Deno.test("resume: a run that got no response is run again, and the resume says what it kept", async () => {
  await withTempDir(async (dir) => {
    const port = freePort();
    await Deno.writeTextFile(`${dir}/e.yaml`, experiment(port));
    const first = await runLoadlab(["run", `${dir}/e.yaml`, "--out-dir", `${dir}/out`]);
    assertEquals(first.code, 4, first.stderr + first.stdout);
    const server = Deno.serve({ hostname: "127.0.0.1", port, onListen() {} }, () => new Response("ok"));
    try {
      const again = await runLoadlab(["run", `${dir}/e.yaml`, "--out-dir", `${dir}/out`, "--resume"]);
      assertEquals(again.code, 0, again.stderr + again.stdout);
      const line = again.stdout.split("\n").find((l) => / late\/one /.test(l));
      assert(line?.endsWith("[ok]"), `the failed run ran again: ${again.stdout}`);
      assert(
        !/ good\/one /.test(again.stdout.split("Findings")[0]),
        `the healthy run is kept: ${again.stdout}`,
      );
      assert(again.stdout.includes("resumed: kept 1 of 2 runs"), again.stdout);
    } finally {
      await server.shutdown();
    }
  });
});
