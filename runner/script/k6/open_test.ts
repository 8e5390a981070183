/**
 * k6's `open()` on what a hostile or mistaken script names: a device (`/dev/zero`, read forever: the
 * script's check waited a minute), a FIFO (blocks until a writer comes), a folder, a missing file and a
 * file over the cap are each refused at once naming the path and why; a file beside the script reads as
 * text, or as bytes with "b".
 */
import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { MAX_OPEN_BYTES, open, scriptDir } from "./runtime.ts";

Deno.test("open() reads regular files only, under its cap, and says why not at once", () => {
  const dir = Deno.makeTempDirSync({ prefix: "loadlab-k6-open-" });
  try {
    scriptDir(dir);
    Deno.writeFileSync(`${dir}/data.bin`, Uint8Array.from([0, 0xff, 0x41]));
    assertEquals(new Uint8Array(open("./data.bin", "b") as ArrayBuffer), Uint8Array.from([0, 0xff, 0x41]));
    assertEquals(open("data.bin"), "\u0000\ufffdA");
    new Deno.Command("mkfifo", { args: [`${dir}/pipe`] }).outputSync();
    using big = Deno.openSync(`${dir}/big.json`, { create: true, write: true });
    big.truncateSync(MAX_OPEN_BYTES + 1);
    throws(
      () => open("/dev/zero"),
      /open\("\/dev\/zero"\): \/dev\/zero is a character device, not a regular file/,
    );
    throws(() => open("./pipe"), /pipe is a FIFO.*, not a regular file/);
    throws(() => open("."), /is a folder/);
    throws(() => open("./nope.txt"), /nope\.txt no such file/);
    throws(() => open("./big.json"), /over the cap of 256 MiB/);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
