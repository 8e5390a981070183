/**
 * The compiled binary: `deno task compile` must produce one file that runs `attack` (worker isolates
 * included) and `report` (assets included) without the source tree. `deno compile` needs the `denort`
 * runtime, which cannot be downloaded here, so this runs only when DENORT_BIN points at one.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";

const denort = Deno.env.get("DENORT_BIN");
if (!denort) console.log("skipped: compiled-binary test needs DENORT_BIN (path to a denort binary)");

Deno.test({
  name: "compiled binary runs attack with workers and writes a report",
  ignore: !denort,
  async fn() {
    const dir = await Deno.makeTempDir();
    const root = new URL("..", import.meta.url).pathname;
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("ok"));
    try {
      const compile = await new Deno.Command(Deno.execPath(), {
        args: [
          "compile",
          "-A",
          "--unstable-net",
          "--include",
          "runner/worker/worker.ts",
          // main.ts imports each command by URL: the commands this test runs.
          ...["--include", "cli/attack/command.ts", "--include", "cli/report_cmd.ts"],
          "-o",
          `${dir}/loadlab`,
          "main.ts",
        ],
        cwd: root,
        env: { DENORT_BIN: denort! },
      }).output();
      assertEquals(compile.code, 0, new TextDecoder().decode(compile.stderr));
      const run = await new Deno.Command(`${dir}/loadlab`, {
        args: [
          "attack",
          `http://127.0.0.1:${server.addr.port}/`,
          "-n",
          "200",
          "--workers",
          "2",
          "--json",
          "--report",
          `${dir}/r.html`,
        ],
        cwd: dir,
      }).output();
      assertEquals(run.code, 0, new TextDecoder().decode(run.stderr));
      assertEquals(JSON.parse(new TextDecoder().decode(run.stdout)).requests, 200);
      ok((await Deno.readTextFile(`${dir}/r.html`)).includes("Content-Security-Policy"));
    } finally {
      await server.shutdown();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
