import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  frameMessage,
  MessageReader,
  READ_BAD_FLAG,
  READ_NO_ENCODING,
  READ_OK,
  READ_TOO_BIG,
} from "./framing.ts";

const bytes = (...b: number[]) => new Uint8Array(b);

Deno.test("a framed message is its flag, its big-endian length and its bytes", () => {
  assertEquals(frameMessage(bytes(0x0a, 0x01, 0x41)), bytes(0, 0, 0, 0, 3, 0x0a, 0x01, 0x41));
  assertEquals(frameMessage(new Uint8Array(0), true), bytes(1, 0, 0, 0, 0));
});

Deno.test("messages split anywhere across DATA payloads are read whole, byte by byte too", () => {
  const wire = new Uint8Array([
    ...frameMessage(bytes(1, 2, 3)),
    ...frameMessage(bytes()),
    ...frameMessage(bytes(9)),
  ]);
  for (const step of [1, 2, 3, 7, wire.length]) {
    const reader = new MessageReader();
    const got: number[][] = [];
    reader.onMessage = (payload) => got.push([...payload]);
    for (let p = 0; p < wire.length; p += step) {
      assertEquals(reader.feed(wire, p, Math.min(wire.length, p + step)), READ_OK);
    }
    assertEquals(reader.messages, 3);
    assertEquals(got, [[1, 2, 3], [], [9]]);
    assertEquals(reader.midMessage, false);
  }
});

Deno.test("without a sink the payloads are only counted", () => {
  const reader = new MessageReader();
  const wire = frameMessage(new Uint8Array(1000));
  assertEquals(reader.feed(wire, 0, 600), READ_OK);
  assertEquals(reader.midMessage, true);
  assertEquals(reader.feed(wire, 600, wire.length), READ_OK);
  assertEquals([reader.messages, reader.midMessage], [1, false]);
});

Deno.test("a prefix past the cap is refused before its payload comes", () => {
  const reader = new MessageReader(16);
  assertEquals(reader.feed(bytes(0, 0, 0, 0, 17), 0, 5), READ_TOO_BIG);
  assertEquals(reader.statedBytes, 17);
  const big = new MessageReader();
  assertEquals(big.feed(bytes(0, 0xff, 0xff, 0xff, 0xff), 0, 5), READ_TOO_BIG);
  assertEquals(big.statedBytes, 0xffffffff);
});

Deno.test("a flag other than 0 or 1, and a compressed message without an encoding, are refused", () => {
  assertEquals(new MessageReader().feed(bytes(2, 0, 0, 0, 0), 0, 5), READ_BAD_FLAG);
  assertEquals(new MessageReader().feed(bytes(1, 0, 0, 0, 0), 0, 5), READ_NO_ENCODING);
  const allowed = new MessageReader();
  allowed.compressedAllowed = true;
  assertEquals(allowed.feed(bytes(1, 0, 0, 0, 0), 0, 5), READ_OK);
});

Deno.test("reset forgets a message cut short", () => {
  const reader = new MessageReader();
  reader.feed(bytes(0, 0, 0), 0, 3);
  assertEquals(reader.midMessage, true);
  reader.reset();
  assertEquals([reader.midMessage, reader.messages], [false, 0]);
});
