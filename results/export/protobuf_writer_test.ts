import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { ProtoWriter } from "./protobuf_writer.ts";

const bytes = (w: ProtoWriter) => [...w.finish()];

Deno.test("protobuf writer: the wire bytes of the protobuf documentation's examples", () => {
  // "A simple message": field 1 = 150 -> 08 96 01.
  assertEquals(bytes(new ProtoWriter().uint(1, 150)), [0x08, 0x96, 0x01]);
  // Field 2 = "testing" -> 12 07 74 65 73 74 69 6e 67.
  assertEquals(bytes(new ProtoWriter().string(2, "testing")), [
    0x12,
    0x07,
    ...new TextEncoder().encode("testing"),
  ]);
  // Embedded message: field 3 = { field 1 = 150 } -> 1a 03 08 96 01.
  assertEquals(bytes(new ProtoWriter().message(3, (m) => m.uint(1, 150))), [0x1a, 0x03, 0x08, 0x96, 0x01]);
  // sint zig-zag: 0 -> 0, -1 -> 1, 1 -> 2, -2 -> 3, 2147483647 -> 4294967294.
  assertEquals(bytes(new ProtoWriter().sint(1, -1)), [0x08, 0x01]);
  assertEquals(bytes(new ProtoWriter().sint(1, -2)), [0x08, 0x03]);
  assertEquals(bytes(new ProtoWriter().sint(1, 2147483647)), [0x08, 0xfe, 0xff, 0xff, 0xff, 0x0f]);
  // Packed repeated sint64 [1, -1, 2] -> 0a 03 02 01 04.
  assertEquals(bytes(new ProtoWriter().packedSint(1, [1, -1, 2])), [0x0a, 0x03, 0x02, 0x01, 0x04]);
  // double 1.0 in field 1 -> 09 then IEEE 754 little-endian.
  assertEquals(bytes(new ProtoWriter().double(1, 1)), [0x09, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f]);
});

Deno.test("protobuf writer: millisecond timestamps beyond 2^32 and a growing buffer", () => {
  // 1_700_000_000_000 = 0x18BCFE56800 -> varint 80 d0 95 ff bc 31.
  assertEquals(bytes(new ProtoWriter().uint(2, 1_700_000_000_000)), [
    0x10,
    0x80,
    0xd0,
    0x95,
    0xff,
    0xbc,
    0x31,
  ]);
  const w = new ProtoWriter();
  for (let i = 0; i < 1000; i++) w.string(1, "label-value");
  assertEquals(w.finish().length, 1000 * 13);
});

Deno.test("protobuf writer: fixed64 of nanoseconds beyond 2^53, sfixed64 of a negative value, packed uint64", () => {
  // 1_700_000_000_000_000_000 = 0x17979CFE362A0000, little-endian after the tag 0x11 (field 2, wire 1).
  assertEquals(bytes(new ProtoWriter().fixed64(2, 1_700_000_000_000_000_000n)), [
    0x11,
    0x00,
    0x00,
    0x2a,
    0x36,
    0xfe,
    0x9c,
    0x97,
    0x17,
  ]);
  assertEquals(bytes(new ProtoWriter().fixed64(6, -1n)), [0x31, ...new Array(8).fill(0xff)]);
  // Packed repeated uint64 [3, 270, 86942] -> 22 06 03 8e 02 9e a7 05 (the documentation's example).
  assertEquals(bytes(new ProtoWriter().packedUint(4, [3, 270, 86942])), [
    0x22,
    0x06,
    0x03,
    0x8e,
    0x02,
    0x9e,
    0xa7,
    0x05,
  ]);
});
