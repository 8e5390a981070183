/**
 * `loadlab init --script`: writes a starter script and its types that `deno check` accepts, and never
 * overwrites a script (exit 2).
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { runInitCommand } from "./init_cmd.ts";

Deno.test("init --script writes a script that type-checks, and refuses to overwrite it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    assertEquals(await runInitCommand(["--script", dir]), 0);
    const checked = await new Deno.Command(Deno.execPath(), {
      args: ["check", "--quiet", "session.ts"],
      cwd: dir,
      stderr: "piped",
    }).output();
    ok(checked.success, new TextDecoder().decode(checked.stderr));
    const before = await Deno.readTextFile(`${dir}/session.ts`);
    assertEquals(await runInitCommand(["--script", dir]), 2);
    assertEquals(await Deno.readTextFile(`${dir}/session.ts`), before);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("init --script at a file, a symlink loop or an empty path: exit 2 naming it, nothing written", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/file`, "mine");
    await Deno.symlink(`${dir}/loop-b`, `${dir}/loop-a`);
    await Deno.symlink(`${dir}/loop-a`, `${dir}/loop-b`);
    for (const target of [`${dir}/file`, `${dir}/loop-a`, ""]) {
      assertEquals(await runInitCommand(["--script", target]), 2, target);
    }
    assertEquals(await Deno.readTextFile(`${dir}/file`), "mine");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("init --script never writes through a types file that is a symlink; a regular one is replaced and said", async () => {
  const dir = await Deno.makeTempDir();
  const errors: string[] = [];
  const logs: string[] = [];
  const { error, log } = console;
  console.error = (...a: unknown[]) => errors.push(a.join(" "));
  console.log = (...a: unknown[]) => logs.push(a.join(" "));
  try {
    await Deno.mkdir(`${dir}/linked`);
    await Deno.writeTextFile(`${dir}/elsewhere.ts`, "mine");
    await Deno.symlink(`${dir}/elsewhere.ts`, `${dir}/linked/loadlab_session.ts`);
    assertEquals(await runInitCommand(["--script", `${dir}/linked`]), 2);
    assertEquals(await Deno.readTextFile(`${dir}/elsewhere.ts`), "mine");
    ok(errors.join("\n").includes("loadlab_session.ts"), errors.join("\n"));
    await Deno.stat(`${dir}/linked/session.ts`).then(() => ok(false, "session.ts written"), () => {});
    await Deno.mkdir(`${dir}/old`);
    await Deno.writeTextFile(`${dir}/old/loadlab_session.ts`, "// an older version's types");
    assertEquals(await runInitCommand(["--script", `${dir}/old`]), 0);
    ok(logs.join("\n").includes("replaced"), logs.join("\n"));
  } finally {
    console.error = error;
    console.log = log;
    await Deno.remove(dir, { recursive: true });
  }
});
