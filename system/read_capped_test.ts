import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { FileReadError, formatCap, readFileCapped, readTextFileCapped } from "./read_capped.ts";

Deno.test("readFileCapped: a regular file up to the cap is read whole", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/a.txt`, "hello");
    assertEquals(readTextFileCapped(`${dir}/a.txt`, 5), "hello");
    assertEquals(readFileCapped(`${dir}/a.txt`, 1024).length, 5);
    await Deno.writeTextFile(`${dir}/empty`, "");
    assertEquals(readTextFileCapped(`${dir}/empty`, 0), "");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readFileCapped: over the cap, a folder, a FIFO, a device or nothing is refused unread", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/a.txt`, "hello");
    throws(() => readFileCapped(`${dir}/a.txt`, 4), /a\.txt: is 5 bytes, over the cap of 4 bytes/);
    using big = await Deno.open(`${dir}/big`, { create: true, write: true });
    await big.truncate(3 * 2 ** 20);
    throws(() => readFileCapped(`${dir}/big`, 2 ** 20), /is 3 MiB, over the cap of 1 MiB/);
    throws(() => readFileCapped(dir, 100), /is a folder/);
    throws(() => readFileCapped(`${dir}/none`, 100), /no such file/);
    throws(() => readFileCapped(`${dir}/a.txt/x`, 100), /a part of the path is a file/);
    // A FIFO would block the open until a writer came: refused by its type before it is opened.
    const made = await new Deno.Command("mkfifo", { args: [`${dir}/fifo`] }).output();
    if (made.success) throws(() => readFileCapped(`${dir}/fifo`, 100), /is a FIFO, not a regular file/);
    throws(() => readFileCapped("/dev/zero", 100), (err) => {
      return err instanceof FileReadError && err.reason === "is a character device, not a regular file";
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("formatCap: the unit a cap is written in", () => {
  assertEquals(formatCap(16 * 2 ** 20), "16 MiB");
  assertEquals(formatCap(1536), "1.5 KiB");
  assertEquals(formatCap(300), "300 bytes");
});

Deno.test("readFileCapped: a file whose size reads 0 but holds bytes (/proc) is read to the cap", () => {
  // Generated files report size 0 and make their text when read; only a Linux /proc shows this.
  if (Deno.build.os !== "linux") return;
  assertEquals(Deno.statSync("/proc/self/status").size, 0);
  const text = readTextFileCapped("/proc/self/status", 2 ** 20);
  assertEquals(text.startsWith("Name:"), true);
  throws(() => readFileCapped("/proc/self/status", 10), (err) => {
    return err instanceof FileReadError && err.reason.startsWith("is over the cap of 10 bytes");
  });
});

Deno.test("readFileCapped: a read the kernel refuses (/proc/self/mem) is named with its path", () => {
  // The process's own memory reads as EIO at offset 0: it came out bare, without the path it was of.
  if (Deno.build.os !== "linux") return;
  throws(() => readFileCapped("/proc/self/mem", 2 ** 20), (err) => {
    return err instanceof FileReadError && err.path === "/proc/self/mem" &&
      /^cannot be read \(.*os error 5\)/.test(err.reason);
  });
});
