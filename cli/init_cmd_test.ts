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
