import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { BAD_CHUNK_LINE, ChunkLine } from "./chunk_line.ts";

const latin1 = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

/** Scans `text` whole, then again byte by byte: both must end alike; [size or error, index of the end]. */
function scan(text: string): [number | string, number] {
  const bytes = latin1(text);
  const outcomes = [bytes.length, 1].map((step) => {
    const line = new ChunkLine();
    line.reset();
    for (let i = 0; i < bytes.length; i += step) {
      const end = line.scan(bytes, i, Math.min(i + step, bytes.length));
      if (end === BAD_CHUNK_LINE) return [line.error, i] as [string, number];
      if (end < Math.min(i + step, bytes.length)) return [line.size, end] as [number, number];
    }
    return ["no line end", bytes.length] as [string, number];
  });
  assertEquals(outcomes[1][0], outcomes[0][0], `${JSON.stringify(text)} byte by byte`);
  return outcomes[0];
}

Deno.test("chunk line: hex size, whitespace and extensions, stopping at the CR or LF", () => {
  assertEquals(scan("5\r\n"), [5, 1]);
  assertEquals(scan("1aF\n"), [0x1af, 3]);
  assertEquals(scan('0005 \t;a="b;c";d\r\n'), [5, 16]);
  assertEquals(scan("0\r\n"), [0, 1]);
  assertEquals(scan(`${"f".repeat(13)}\r\n`), [2 ** 52 - 1, 13]);
});

Deno.test("chunk line: what is no size line, and why", () => {
  for (
    const text of ["\r\n", " 5\r\n", "-5\r\n", "0x5\r\n", "5 5\r\n", "5 ext\r\n", `${"f".repeat(14)}\r\n`]
  ) {
    assertEquals(scan(text)[0], "bad chunk size", JSON.stringify(text));
  }
  assertEquals(scan("5;a\x00\r\n")[0], "control byte in a line");
  assertEquals(scan("5;a")[0], "no line end");
});
