/**
 * @module
 * The QPACK decoder on the examples of RFC 9204 Appendix B (encoder stream, field sections and the decoder
 * stream's bytes, table sizes) and on what a hostile encoder sends: a capacity above ours, an entry above the
 * capacity, references past the table, a field section that references one big entry until it is too large.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  QPACK_BAD_CAPACITY,
  QPACK_BAD_INDEX,
  QPACK_BAD_INSTRUCTION,
  QPACK_BAD_PREFIX,
  QPACK_BLOCKED,
  QPACK_TOO_LARGE,
  QPACK_TOO_MANY_BLOCKED,
  QpackDecoder,
} from "./qpack_decoder.ts";

const bytes = (hex: string) =>
  Uint8Array.from(hex.replace(/\s/g, "").match(/../g) ?? [], (h) => parseInt(h, 16));
const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

function section(d: QpackDecoder, streamId: number, block: string): { code: number; fields: string[] } {
  const b = bytes(block);
  const fields: string[] = [];
  const code = d.decodeSection(streamId, b, 0, b.length, (n, v) => fields.push(`${n}: ${v}`));
  return { code, fields };
}

function encoder(d: QpackDecoder, instructions: string): number {
  const b = bytes(instructions);
  return d.readEncoderStream(b, 0, b.length);
}

function decoderStream(d: QpackDecoder): string {
  const out = new Uint8Array(64);
  return hex(out.subarray(0, d.writeDecoderInstructions(out, 0)));
}

Deno.test("RFC 9204 B.1: a literal with a static name reference, no dynamic table", () => {
  const d = new QpackDecoder();
  assertEquals(section(d, 0, "0000 510b 2f69 6e64 6578 2e68 746d 6c"), {
    code: 0,
    fields: [":path: /index.html"],
  });
  assertEquals(decoderStream(d), "");
});

Deno.test("RFC 9204 B.2-B.5: inserts, post-base and relative indexes, duplicate, eviction", () => {
  const d = new QpackDecoder(220, 0);
  // B.2
  assertEquals(
    encoder(d, "3fbd01 c00f 7777 772e 6578 616d 706c 652e 636f 6d c10c 2f73 616d 706c 652f 7061 7468"),
    0,
  );
  assertEquals(section(d, 4, "0381 10 11"), {
    code: 0,
    fields: [":authority: www.example.com", ":path: /sample/path"],
  });
  assertEquals([decoderStream(d), d.tableSizeBytes], ["84", 106]);
  // B.3: a speculative insert is acknowledged by an Insert Count Increment.
  assertEquals(encoder(d, "4a63 7573 746f 6d2d 6b65 790c 6375 7374 6f6d 2d76 616c 7565"), 0);
  assertEquals([decoderStream(d), d.tableSizeBytes], ["01", 160]);
  // B.4
  assertEquals(encoder(d, "02"), 0);
  assertEquals(section(d, 8, "0500 80 c1 81"), {
    code: 0,
    fields: [":authority: www.example.com", ":path: /", "custom-key: custom-value"],
  });
  d.cancelStream(8);
  assertEquals([decoderStream(d), d.tableSizeBytes], ["8848", 217]);
  // B.5: the insert evicts the oldest entry.
  assertEquals(encoder(d, "810d 6375 7374 6f6d 2d76 616c 7565 32"), 0);
  assertEquals([decoderStream(d), d.tableSizeBytes, d.insertCount], ["01", 215, 5]);
  assertEquals(section(d, 12, "0600 80").fields, ["custom-key: custom-value2"]);
  assertEquals(section(d, 16, "0600 84").code, QPACK_BAD_INDEX); // absolute 0: evicted
});

Deno.test("a section waits for its inserts, within SETTINGS_QPACK_BLOCKED_STREAMS", () => {
  const d = new QpackDecoder(220, 1);
  assertEquals(encoder(d, "3fbd01"), 0);
  assertEquals(section(d, 4, "0381 10 11").code, QPACK_BLOCKED);
  assertEquals(section(d, 8, "0381 10 11").code, QPACK_TOO_MANY_BLOCKED);
  assertEquals([d.blockedStreams, d.readyStream()], [1, -1]);
  // The encoder stream arrives an octet at a time.
  const inserts = bytes("c00f 7777 772e 6578 616d 706c 652e 636f 6d c10c 2f73 616d 706c 652f 7061 7468");
  for (let i = 0; i < inserts.length; i++) assertEquals(d.readEncoderStream(inserts, i, i + 1), 0);
  assertEquals(d.readyStream(), 4);
  assertEquals(section(d, 4, "0381 10 11").fields, [":authority: www.example.com", ":path: /sample/path"]);
  assertEquals([d.blockedStreams, decoderStream(d)], [0, "84"]);
});

Deno.test("a hostile encoder stream is refused, never grows the table past its capacity", () => {
  // A capacity above SETTINGS_QPACK_MAX_TABLE_CAPACITY.
  assertEquals(encoder(new QpackDecoder(220), "3fbe01"), QPACK_BAD_CAPACITY);
  // An insert before any capacity is set (it starts at 0), and one larger than the capacity set.
  assertEquals(
    encoder(new QpackDecoder(220), "4a63 7573 746f 6d2d 6b65 790c 6375 7374 6f6d 2d76 616c 7565"),
    -10,
  );
  const small = new QpackDecoder(220);
  assertEquals(encoder(small, "3f0b"), 0); // capacity 42: one 10 + 12 + 32 octet entry does not fit
  assertEquals(
    encoder(small, "4a63 7573 746f 6d2d 6b65 790c 6375 7374 6f6d 2d76 616c 7565"),
    QPACK_BAD_CAPACITY,
  );
  // A static index past the table, a duplicate of an entry that does not exist.
  const d = new QpackDecoder(220);
  assertEquals(encoder(d, "3fbd01 ff2400"), QPACK_BAD_INSTRUCTION);
  assertEquals(encoder(new QpackDecoder(220), "3fbd01 00"), QPACK_BAD_INSTRUCTION);
  // A string far longer than the capacity is refused from its length, before its octets arrive.
  assertEquals(encoder(new QpackDecoder(220), "3fbd01 5f ffff03"), QPACK_BAD_CAPACITY);
});

Deno.test("field sections: bad prefixes and references, and a bomb bounded by the section size", () => {
  const d = new QpackDecoder(220, 0, 4096);
  assertEquals(encoder(d, "3fbd01 4a63 7573 746f 6d2d 6b65 790c 6375 7374 6f6d 2d76 616c 7565"), 0);
  assertEquals(section(d, 4, "0e00 80").code, QPACK_BAD_PREFIX); // encoded 14 > 2 * 6 entries
  assertEquals(section(d, 4, "0281 80").code, QPACK_BAD_PREFIX); // Base below 0
  assertEquals(section(d, 4, "0200 81").code, QPACK_BAD_INDEX); // before the table
  assertEquals(section(d, 4, "0200 10").code, QPACK_BAD_INDEX); // post-base past the Required Insert Count
  assertEquals(section(d, 4, "0000 80").code, QPACK_BAD_INDEX); // dynamic reference with none required
  // 54 octets per reference: the 76th passes 4096 octets of field section.
  assertEquals(section(d, 4, "0200" + "80".repeat(75)).code, 0);
  assertEquals(section(d, 4, "0200" + "80".repeat(76)).code, QPACK_TOO_LARGE);
});
