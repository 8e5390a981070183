/**
 * k6's `open()` on what a hostile or mistaken script names: a device (`/dev/zero`, read forever: the
 * script's check waited a minute), a FIFO (blocks until a writer comes), a folder, a missing file and a
 * file over the cap are each refused at once naming the path and why; a file beside the script reads as
 * text, or as bytes with "b", in the script's init code only.
 */
import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { endInit, MAX_OPEN_BYTES, open, setScriptFolder as scriptDir } from "./init_files.ts";

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
    // Past the init code (the module's top level), as k6: it read the file again every iteration.
    endInit();
    throws(
      () => open("./data.bin"),
      /open\("\.\/data\.bin"\) after the script's init code: as k6, a file is opened at/,
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
