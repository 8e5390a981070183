/**
 * A target's log file that is a FIFO (planted in out/<name>/logs, or given as an external target's
 * logFile) with no reader: opening it for writing blocked loadlab's main thread for good, where even
 * SIGTERM could not reach it. The spawn runs in a child process so this test stays bounded either way.
 */
import assert from "node:assert/strict";

Deno.test("a FIFO as a target's log file is refused with its reason, not waited on forever", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const fifo = `${dir}/target.log`;
    assert.ok((await new Deno.Command("mkfifo", { args: [fifo] }).output()).success, "mkfifo");
    const script = `
      import { ManagedProcess } from ${JSON.stringify(new URL("./process.ts", import.meta.url).href)};
      try {
        const p = ManagedProcess.spawn({ name: "target", command: "true", logFile: ${JSON.stringify(fifo)} });
        await p.stop();
        console.log("spawned");
      } catch (err) {
        console.log(err.name + ": " + err.message);
      }`;
    const child = new Deno.Command(Deno.execPath(), {
      args: ["eval", script],
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    let blocked = false;
    const timer = setTimeout(async () => {
      blocked = true;
      // Release the blocked open (a reader arrives), so the child can end.
      (await Deno.open(fifo, { read: true })).close();
    }, 15_000);
    const out = await child.output();
    clearTimeout(timer);
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assert.ok(!blocked, `the spawn blocked on the FIFO: ${text}`);
    assert.match(text, /^TargetError: target: log file .*target\.log is a FIFO/m, text);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
