import assert from "node:assert/strict";
import { findProgram, isExecutable, programOutput } from "./path_lookup.ts";

Deno.test("findProgram finds executables on PATH only, and checks a path given with a slash", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/tool`, "#!/bin/sh\n", { mode: 0o755 });
    await Deno.writeTextFile(`${dir}/plain`, "data", { mode: 0o644 });
    // The search path is given, not set: the files of a parallel pass share one process's PATH.
    const path = `::/nonexistent:${dir}`;
    assert.equal(findProgram("tool", path), `${dir}/tool`);
    assert.equal(findProgram("plain", path), null, "no execute bit");
    assert.equal(findProgram("missing", path), null);
    assert.equal(findProgram(`${dir}/tool`), `${dir}/tool`);
    assert.equal(findProgram(`${dir}/missing`), null);
    assert.equal(isExecutable(dir), false, "a directory is not a program");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("programOutput: a program's trimmed stdout, null when it fails or is missing", () => {
  assert.equal(programOutput("sh", ["-c", "echo ' 1.2.3 '; echo noise >&2"]), "1.2.3");
  assert.equal(programOutput("sh", ["-c", "echo partial; exit 3"]), null);
  assert.equal(programOutput("/nonexistent/loadlab-no-such-program", []), null);
});
