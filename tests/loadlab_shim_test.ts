/**
 * `loadlab` as a command, as README's quick start installs it: tools/loadlab linked onto PATH runs the
 * checkout's main.ts from any directory (relative paths stay the caller's) with the flags of the `loadlab`
 * task, and the `deno install -g` line the README gives makes a working `loadlab` too. Bounded: 60
 * requests against a loopback server.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";

const root = new URL("..", import.meta.url).pathname;
const decode = (b: Uint8Array) => new TextDecoder().decode(b);

/** The flags between `deno run` and `main.ts` of a command line. */
function runFlags(line: string): string[] {
  const words = line.trim().split(/\s+/);
  const from = words.indexOf("run") + 1;
  return words.slice(from, words.findIndex((w) => /main\.ts"?$/.test(w)))
    .filter((w) => !w.startsWith("--config") && !w.startsWith('"$root'));
}

Deno.test("tools/loadlab passes the same flags as the loadlab task", async () => {
  const config = JSON.parse(await Deno.readTextFile(`${root}/deno.json`));
  const shim = await Deno.readTextFile(`${root}/tools/loadlab`);
  const exec = shim.split("\n").find((l) => l.startsWith("exec "))!;
  assertEquals(runFlags(exec), runFlags(config.tasks.loadlab));
  ok(runFlags(exec).includes("--v8-flags=--heap-growing-percent=50"));
});

Deno.test("tools/loadlab linked onto PATH runs an attack from another directory", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.mkdir(`${dir}/bin`);
  await Deno.symlink(`${root}/tools/loadlab`, `${dir}/bin/loadlab`);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("ok"));
  try {
    const out = await new Deno.Command("loadlab", {
      args: ["attack", `http://127.0.0.1:${server.addr.port}/`, "-n", "60", "-c", "2", "-o", "out.json"],
      cwd: dir,
      env: { PATH: `${dir}/bin:${Deno.env.get("PATH")}` },
    }).output();
    assertEquals(out.code, 0, decode(out.stderr));
    const results = JSON.parse(await Deno.readTextFile(`${dir}/out.json`));
    assertEquals(results.runs[0].requests, 60);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the README's deno install line makes a working loadlab command", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const install = await new Deno.Command(Deno.execPath(), {
      args: [
        "install",
        "-g",
        "-A",
        "--root",
        dir,
        "--name",
        "loadlab",
        "--config",
        "deno.json",
        "--v8-flags=--heap-growing-percent=50",
        "main.ts",
      ],
      cwd: root,
    }).output();
    assertEquals(install.code, 0, decode(install.stderr));
    const help = await new Deno.Command(`${dir}/bin/loadlab`, { args: ["--help"], cwd: dir }).output();
    assertEquals(help.code, 0, decode(help.stderr));
    ok(decode(help.stdout).includes("loadlab"), decode(help.stdout));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
