import assert from "node:assert/strict";
import { makeRuntimeDir, preloadCjs } from "./runtime_preload.ts";

/** `makeRuntimeDir`, or "timeout" when it has not finished within `ms` (a FIFO opened for writing blocks). */
async function withinMs(dir: string, ms: number) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) => timer = setTimeout(() => resolve("timeout"), ms));
  const made = makeRuntimeDir(dir);
  const result = await Promise.race([made, timeout]);
  clearTimeout(timer);
  return { result, made };
}

Deno.test("the preload files replace what was planted in the runtime folder: a symlink is not written through, a FIFO does not hang", async () => {
  const root = await Deno.makeTempDir();
  try {
    const dir = `${root}/logs/runtime`;
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(`${root}/elsewhere.txt`, "keep me");
    await Deno.symlink(`${root}/elsewhere.txt`, `${dir}/preload.cjs`);
    const mkfifo = await new Deno.Command("mkfifo", { args: [`${dir}/preload.mjs`] }).output();
    assert.ok(mkfifo.success, "mkfifo");
    const { result, made } = await withinMs(dir, 5_000);
    if (result === "timeout") {
      // Release the blocked open so the test ends, then fail.
      const reader = await Deno.open(`${dir}/preload.mjs`, { read: true });
      await made.catch(() => {});
      reader.close();
      assert.fail("makeRuntimeDir blocked on a FIFO planted as preload.mjs");
    }
    assert.equal(
      await Deno.readTextFile(`${root}/elsewhere.txt`),
      "keep me",
      "the symlink's target is untouched",
    );
    assert.ok((await Deno.lstat(result.cjs)).isFile);
    assert.ok((await Deno.lstat(result.mjs)).isFile);
    assert.equal(await Deno.readTextFile(result.cjs), preloadCjs());
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a symlink planted as a process's sampler file is refused: its target is untouched, the sampler says so once and the process runs on", async () => {
  const root = await Deno.makeTempDir();
  try {
    const dir = `${root}/runtime`;
    await Deno.mkdir(dir);
    // A stale symlink left where a pid's file will be is cleared when the folder is made.
    await Deno.symlink(`${root}/elsewhere.txt`, `${dir}/1.jsonl`);
    const runtime = await makeRuntimeDir(dir);
    assert.equal([...Deno.readDirSync(dir)].some((e) => e.name === "1.jsonl"), false);
    // Pids are predictable: the process plants the symlink for its own pid, then loads the preload.
    await Deno.writeTextFile(`${root}/elsewhere.txt`, "keep me");
    const script = `${root}/plant.mjs`;
    await Deno.writeTextFile(
      script,
      `Deno.symlinkSync(${JSON.stringify(`${root}/elsewhere.txt`)}, ` +
        `${JSON.stringify(dir)} + "/" + Deno.pid + ".jsonl");\n` +
        `await import(${JSON.stringify(`file://${runtime.mjs}`)});\n` +
        `await new Promise((r) => setTimeout(r, 600));\nconsole.log("still running");\n`,
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", script],
      env: { LOADLAB_RUNTIME_DIR: dir },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.ok(out.success, stderr);
    assert.equal(new TextDecoder().decode(out.stdout).trim(), "still running");
    assert.equal(await Deno.readTextFile(`${root}/elsewhere.txt`), "keep me", "written through the symlink");
    assert.equal(stderr.match(/loadlab runtime sampler off/g)?.length, 1, stderr);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
