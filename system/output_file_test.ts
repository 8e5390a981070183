/**
 * @module
 * Tests of the atomic write: one that fails keeps the old file, leaves no temporary file
 * and names the file asked for with the OS error; a writer killed mid-write (a second Ctrl-C, `kill -9`)
 * leaves a whole file, the old one or the new.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { WriteError, writeTextAtomic } from "./output_file.ts";

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

Deno.test("writeTextAtomic: a process killed while it writes leaves the old file whole, never a part", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/results.json`;
  // 16 MB a version: the kill lands while one is being written (its temp file is seen first).
  const big = (tag: string) => JSON.stringify({ tag, runs: [{ pad: "x".repeat(16 * 1024 * 1024) }] });
  try {
    await Deno.writeTextFile(path, big("old"));
    const writer = new Deno.Command(Deno.execPath(), {
      args: [
        "eval",
        `import { writeTextAtomic } from ${JSON.stringify(new URL("./output_file.ts", import.meta.url).href)};
         const text = JSON.stringify({ tag: "new", runs: [{ pad: "x".repeat(16 * 1024 * 1024) }] });
         for (let i = 0; i < 50; i++) await writeTextAtomic(${JSON.stringify(path)}, text);`,
      ],
      stdout: "null",
      stderr: "null",
      signal: AbortSignal.timeout(60_000),
    }).spawn();
    const writing = () => [...Deno.readDirSync(dir)].some((e) => e.name.endsWith(".tmp"));
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && !writing()) await new Promise((r) => setTimeout(r, 1));
    writer.kill("SIGKILL");
    await writer.status;
    const tag = JSON.parse(await Deno.readTextFile(path)).tag;
    assert(tag === "old" || tag === "new", `a whole version: ${tag}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
