/**
 * @module
 * Tests of the atomic write: one that fails keeps the old file, leaves no temporary file
 * and names the file asked for with the OS error.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { WriteError, writeTextAtomic } from "./atomic_write.ts";

Deno.test("writeTextAtomic: a failed write names the path asked for and the OS error, leaves the old file and no temp file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/file`, "a regular file");
    // A path under a regular file fails for root too (ENOTDIR).
    const err = await writeTextAtomic(`${dir}/file/out.json`, "{}").then(() => null, (e) => e);
    assert(err instanceof WriteError, String(err));
    assertEquals(err.path, `${dir}/file/out.json`);
    assert(/^Not a directory \(os error 20\)$/.test(err.reason), err.reason);
    assert(!err.message.includes(".tmp"), err.message);
    // A folder where the file should be: the rename fails, the temp file is removed again.
    await Deno.mkdir(`${dir}/taken`);
    await Deno.writeTextFile(`${dir}/taken/keep`, "");
    const taken = await writeTextAtomic(`${dir}/taken`, "new").then(() => null, (e) => e);
    assert(taken instanceof WriteError && !taken.message.includes(".tmp"), String(taken));
    assertEquals([...Deno.readDirSync(dir)].map((e) => e.name).sort(), ["file", "taken"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
