import assert from "node:assert/strict";
import { findProgram, isExecutable } from "./path_lookup.ts";

Deno.test("findProgram finds executables on PATH only, and checks a path given with a slash", async () => {
  const dir = await Deno.makeTempDir();
  const saved = Deno.env.get("PATH") ?? "";
  try {
    await Deno.writeTextFile(`${dir}/tool`, "#!/bin/sh\n", { mode: 0o755 });
    await Deno.writeTextFile(`${dir}/plain`, "data", { mode: 0o644 });
    Deno.env.set("PATH", `::/nonexistent:${dir}`);
    assert.equal(findProgram("tool"), `${dir}/tool`);
    assert.equal(findProgram("plain"), null, "no execute bit");
    assert.equal(findProgram("missing"), null);
    assert.equal(findProgram(`${dir}/tool`), `${dir}/tool`);
    assert.equal(findProgram(`${dir}/missing`), null);
    assert.equal(isExecutable(dir), false, "a directory is not a program");
  } finally {
    Deno.env.set("PATH", saved);
    await Deno.remove(dir, { recursive: true });
  }
});
