/**
 * @module
 * The log tail shown when a target fails: the last lines of each log, read from the end of the file, so
 * a target that wrote gigabytes of log (one line per request over a long run) costs a small read, not
 * the whole file held as text (past 512 MiB it cannot even be a string, and no tail was shown at all).
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { logTail } from "./targets.ts";

Deno.test("logTail reads the end of a 1 GiB log, not all of it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "loadlab-log-tail-" });
  try {
    const path = `${dir}/external.log`;
    await Deno.writeTextFile(path, "started\n");
    // A sparse gigabyte: nothing is written to disk, yet reading it whole would take a gigabyte.
    await Deno.truncate(path, 2 ** 30);
    await Deno.writeTextFile(path, "\nlisten failed: EADDRINUSE\nexit 1\n", { append: true });
    await Deno.writeTextFile(`${dir}/small.log`, "a\nb\nc\n");
    const tail = await logTail(dir, 2);
    const parts = tail.split(/(?=\[)/).sort();
    assertEquals(parts, ["[external.log]\nlisten failed: EADDRINUSE\nexit 1\n", "[small.log]\nb\nc"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
