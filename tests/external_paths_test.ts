/**
 * @module
 * An external target's process runs in the experiment file's folder, as its data files are read from
 * it: a relative `cwd` is resolved against that folder, and without one the process starts there, so
 * `args: [server.js]` beside the file works whatever folder loadlab is run from. Real node processes on
 * free loopback ports, a count load of 5 requests each.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { requireProgram, withTempDir } from "./helpers.ts";
import { freePort } from "../system/ports.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const SERVER =
  `require("node:http").createServer((q, s) => s.end("ok")).listen(Number(process.env.PORT), "127.0.0.1");`;

Deno.test("an external target's cwd and args are relative to the experiment file, not the shell's folder", async () => {
  if (!requireProgram("node")) return;
  await withTempDir(async (dir) => {
    const home = join(dir, "study"), elsewhere = join(dir, "elsewhere");
    await Deno.mkdir(join(home, "app"), { recursive: true });
    await Deno.mkdir(elsewhere);
    await Deno.writeTextFile(join(home, "server.js"), SERVER);
    await Deno.writeTextFile(join(home, "app", "main.js"), SERVER);
    const [beside, inApp] = [freePort("127.0.0.1"), freePort("127.0.0.1")];
    const target = (port: number, rest: string) =>
      `{ kind: external, command: node, ${rest}, env: { PORT: "${port}" }, url: "http://127.0.0.1:${port}" }`;
    await Deno.writeTextFile(
      join(home, "study.yaml"),
      `name: paths
targets:
  beside: ${target(beside, "args: [server.js]")}
  inApp: ${target(inApp, "cwd: app, args: [main.js]")}
loads:
  five: { model: count, requests: 5, connections: 1 }
requests: [/]
`,
    );
    // Run from another folder, by a relative path to the file.
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", MAIN, "run", "../study/study.yaml", "--out-dir", join(dir, "out")],
      cwd: elsewhere,
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assertEquals(out.code, 0, text);
    const results = JSON.parse(await Deno.readTextFile(join(dir, "out", "results.json")));
    assertEquals(
      results.runs.map((r: { name: string; requests: number }) => [r.name, r.requests]),
      [["beside/five", 5], ["inApp/five", 5]],
    );
  });
});
