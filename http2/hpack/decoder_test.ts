/**
 * @module
 * The HPACK decoder against RFC 7541 Appendix C: C.2 (one representation each), C.3-C.6 (request and
 * response sequences sharing a dynamic table, with and without Huffman; C.5/C.6 at a 256-octet table, so
 * entries are evicted), taken from the spec-example fixtures that ship with the hpack.js package. Then what a
 * peer can break: each HPACK_* code from a block built to trigger it, and the bounds (table size updates,
 * header list size, integers, Huffman padding and EOS).
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { specExamples } from "hpack.js/test/fixtures.js";
import {
  HPACK_BAD_FIELD,
  HPACK_BAD_HUFFMAN,
  HPACK_BAD_INDEX,
  HPACK_BAD_STATUS,
  HPACK_TABLE_SIZE,
  HPACK_TOO_LARGE,
  HPACK_TRUNCATED,
  HpackDecoder,
} from "./decoder.ts";
import { HUFFMAN_CODES, huffmanDecode, huffmanDecodeCached } from "./huffman.ts";
import { huffmanEncode } from "../../tests/fixtures/hpack_huffman.ts";
import { STATIC_TABLE } from "./static.ts";
import hpackStatic from "hpack.js/lib/hpack/static-table.js";

interface SpecExample {
  id: string;
  input: string;
  output: [string, string][];
  table: [string, string, number][];
}

function hex(text: string): Uint8Array {
  const digits = text.replace(/\s+/g, "");
  return Uint8Array.from(
    { length: digits.length / 2 },
    (_, i) => parseInt(digits.slice(i * 2, i * 2 + 2), 16),
  );
}

function decodeAll(d: HpackDecoder, block: Uint8Array): { code: number; fields: [string, string][] } {
  const fields: [string, string][] = [];
  const code = d.decodeStatus(block, 0, block.length, (n, v) => fields.push([n, v]));
  return { code, fields };
}

Deno.test("C.2: literal with indexing, without indexing, never indexed, indexed", () => {
  const cases: [string, [string, string], number][] = [
    ["400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572", ["custom-key", "custom-header"], 55],
    ["040c 2f73 616d 706c 652f 7061 7468", [":path", "/sample/path"], 0],
    ["1008 7061 7373 776f 7264 0673 6563 7265 74", ["password", "secret"], 0],
    ["82", [":method", "GET"], 0],
  ];
  for (const [input, field, tableBytes] of cases) {
    const d = new HpackDecoder();
    assertEquals(decodeAll(d, hex(input)), { code: 0, fields: [field] });
    assertEquals(d.tableSizeBytes, tableBytes);
  }
});

for (const group of ["C.3", "C.4", "C.5", "C.6"]) {
  Deno.test(`${group}: the sequence decodes in order with the RFC's dynamic table sizes`, () => {
    const examples = (specExamples as SpecExample[]).filter((e) => e.id.startsWith(group + "."));
    assertEquals(examples.length, 3);
    const d = new HpackDecoder(group === "C.5" || group === "C.6" ? 256 : 4096);
    for (const e of examples) {
      const { code, fields } = decodeAll(d, hex(e.input));
      const status = e.output.find(([n]) => n === ":status");
      assertEquals(code, status ? Number(status[1]) : 0, e.id);
      assertEquals(fields, e.output, e.id);
      assertEquals(d.tableSizeBytes, e.table.reduce((sum, [, , size]) => sum + size, 0), e.id);
    }
  });
}

Deno.test("the Huffman table is the RFC's canonical code", () => {
  // Spot checks from RFC 7541 Appendix B: '0' = 00000 (5), 'a' = 00011 (5), ' ' = 010100 (6), EOS = 30 ones.
  assertEquals([HUFFMAN_CODES[48], HUFFMAN_CODES[97], HUFFMAN_CODES[32]], [0x0, 0x3, 0x14]);
  assertEquals(HUFFMAN_CODES[256], 0x3fffffff);
  const out = new Uint8Array(64);
  const src = hex("f1e3 c2e5 f23a 6ba0 ab90 f4ff");
  const end = huffmanDecode(src, 0, src.length, out, 0);
  assertEquals(new TextDecoder().decode(out.subarray(0, end)), "www.example.com");
});

Deno.test("Huffman: every octet decodes at every bit offset, codes of up to 30 bits included", () => {
  // RFC 7541 C.4.1's string, encoded here as the RFC has it.
  assertEquals([...huffmanEncode(new TextEncoder().encode("www.example.com"))], [
    ...hex("f1e3 c2e5 f23a 6ba0 ab90 f4ff"),
  ]);
  // A prefix of 0-7 five-bit symbols moves the octet's code to every alignment; after it, an octet whose
  // code is 5 bits and the octet again, so a long code must end exactly where the next begins.
  const out = new Uint8Array(64);
  for (let octet = 0; octet < 256; octet++) {
    for (let shift = 0; shift < 8; shift++) {
      const text = Uint8Array.from([...Array(shift).fill(97), octet, 48, octet, octet]);
      const src = huffmanEncode(text);
      const end = huffmanDecode(src, 0, src.length, out, 0);
      assertEquals(
        [...out.subarray(0, Math.max(0, end))],
        [...text],
        `octet ${octet}, ${shift} symbols before it`,
      );
    }
  }
});

Deno.test("Huffman: EOS inside, padding of 8 bits, padding of zeros are errors", () => {
  const out = new Uint8Array(64);
  // EOS (30 ones) then 2 ones of padding.
  assert(huffmanDecode(hex("ffff ffff"), 0, 4, out, 0) < 0, "EOS");
  // 'a' (00011) + 3 ones of padding = 0x1f, then a whole octet of ones: 8 bits of padding.
  assert(huffmanDecode(hex("1fff"), 0, 2, out, 0) < 0, "8 bits padding");
  // 'a' (00011) then 000 padding: zeros are not EOS's prefix.
  assert(huffmanDecode(hex("18"), 0, 1, out, 0) < 0, "zero padding");
  assertEquals(huffmanDecode(hex("1f"), 0, 1, out, 0), 1, "'a' + 111");
});

Deno.test("Huffman: the cached decoder answers exactly what decoding does, errors never cached", () => {
  // Few distinct strings (repeats hit the cache), slots shared by several (collisions), a third of them
  // broken (bad padding or EOS inside) and decoded again after a valid one of the same length.
  let seed = 7;
  const r = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const pool = Array.from({ length: 200 }, () => {
    const bytes = Uint8Array.from({ length: 1 + Math.floor(r() * 60) }, () => Math.floor(r() * 256));
    if (r() < 0.5) bytes[bytes.length - 1] |= 0x7f; // mostly valid padding
    return bytes;
  });
  const plain = new Uint8Array(128);
  const cached = new Uint8Array(140);
  let hits = 0;
  for (let i = 0; i < 20_000; i++) {
    const src = pool[Math.floor(r() * pool.length)];
    const a = huffmanDecode(src, 0, src.length, plain, 0);
    const b = huffmanDecodeCached(src, 0, src.length, cached, 12);
    if (a < 0) assert(b < 0, `string ${i}: an error decoded from the cache`);
    else {
      assertEquals(b - 12, a, `string ${i}: length`);
      assertEquals([...cached.subarray(12, b)], [...plain.subarray(0, a)], `string ${i}: bytes`);
      hits++;
    }
  }
  assert(hits > 1_000, `valid strings decoded: ${hits}`);
});

Deno.test("errors: index 0 or past the table, truncation, integer overflow, bad Huffman", () => {
  const cases: [string, number][] = [
    ["80", HPACK_BAD_INDEX], // indexed 0
    ["be", HPACK_BAD_INDEX], // dynamic index 62 in an empty table
    ["7f00", HPACK_BAD_INDEX], // literal with indexing, name index 63 (62 + 1): empty table
    ["40", HPACK_TRUNCATED], // literal, new name, no name string
    ["4005 6162", HPACK_TRUNCATED], // name of 5 octets, 2 given
    ["ff", HPACK_TRUNCATED], // integer continues past the end
    ["ff ffff ffff ff0f", HPACK_TOO_LARGE], // integer above 2^31
    ["ff 8080 8080 8080 00", HPACK_TOO_LARGE], // more than 5 continuation octets
    ["4081 ff00", HPACK_BAD_HUFFMAN], // Huffman name of 8 ones: padding too long
    ["04 83ff ffff", HPACK_BAD_HUFFMAN], // Huffman value with EOS inside
  ];
  for (const [input, code] of cases) {
    assertEquals(new HpackDecoder().decodeStatus(hex(input), 0, hex(input).length), code, input);
  }
});

Deno.test("malformed fields: upper case, empty name, NUL/CR/LF in a value, pseudo after regular", () => {
  const enc = new TextEncoder();
  const literal = (
    name: string,
    value: string,
  ) => [0, name.length, ...enc.encode(name), value.length, ...enc.encode(value)];
  const cases: [number[], number][] = [
    [literal("X-Up", "v"), HPACK_BAD_FIELD],
    [literal("", "v"), HPACK_BAD_FIELD],
    [literal("a b", "v"), HPACK_BAD_FIELD],
    [literal("x", "a\r\nb"), HPACK_BAD_FIELD],
    [literal("x", "a\0"), HPACK_BAD_FIELD],
    [[...literal("x", "1"), 0x88], HPACK_BAD_STATUS], // :status after a regular field
    [[...literal("x", "1"), 0x82], HPACK_BAD_FIELD], // :method after a regular field
    [[0x88, 0x89], HPACK_BAD_STATUS], // two :status
    [[0x08, 3, 0x30, 0x30, 0x30], HPACK_BAD_STATUS], // :status 000 (reads as none)
    [[0x08, 2, 0x32, 0x30], HPACK_BAD_STATUS], // :status "20"
    [[0x08, 3, 0x32, 0x30, 0x78], HPACK_BAD_STATUS], // :status "20x"
  ];
  for (const [bytes, code] of cases) {
    const block = Uint8Array.from(bytes);
    assertEquals(new HpackDecoder().decodeStatus(block, 0, block.length), code, JSON.stringify(bytes));
  }
});

Deno.test("table size updates: only before the first field, never above what we advertised", () => {
  const d = new HpackDecoder(256);
  assertEquals(d.decodeStatus(hex("3fe1 01 88"), 0, 4), 200); // update to 256, then :status 200
  assertEquals(d.decodeStatus(hex("3fe2 01"), 0, 3), HPACK_TABLE_SIZE); // 257 > 256
  assertEquals(d.decodeStatus(hex("88 20"), 0, 2), HPACK_TABLE_SIZE); // after a field
  // Two updates at the start are allowed (RFC 7541 4.2): to 0 then back to 64; 0 evicts everything.
  const e = new HpackDecoder();
  assertEquals(e.decodeStatus(hex("4003 782d 6101 62"), 0, 7), 0); // literal with indexing "x-a: b"
  assertEquals(e.tableSizeBytes, 3 + 1 + 32);
  assertEquals(e.decodeStatus(hex("20 3f21 88"), 0, 4), 200); // to 0 (evicts), then to 64
  assertEquals(e.tableSizeBytes, 0);
  assertEquals(e.decodeStatus(hex("be"), 0, 1), HPACK_BAD_INDEX);
});

Deno.test("the header list bound counts name + value + 32 per field; content-length is read", () => {
  const d = new HpackDecoder(4096, 100);
  // :status 200 (42) + content-length 12 (14 + 2 + 32 = 48) = 90 <= 100.
  const block = Uint8Array.from([0x88, 0x0f, 0x0d, 2, 0x31, 0x32]);
  assertEquals(d.decodeStatus(block, 0, block.length), 200);
  assertEquals(d.contentLength, 12);
  const three = Uint8Array.from([0x88, 0x0f, 0x0d, 2, 0x31, 0x32, 0x84]); // + :path / (38): 128 > 100
  assertEquals(d.decodeStatus(three, 0, three.length), HPACK_TOO_LARGE);
  const twoLengths = Uint8Array.from([0x88, 0x0f, 0x0d, 1, 0x31, 0x0f, 0x0d, 1, 0x32]);
  const e = new HpackDecoder();
  assertEquals(e.decodeStatus(twoLengths, 0, twoLengths.length), HPACK_BAD_FIELD, "two values: malformed");
  assertEquals(e.contentLength, -1, "two different content-length values");
  const same = Uint8Array.from([0x88, 0x0f, 0x0d, 1, 0x31, 0x0f, 0x0d, 1, 0x31]);
  assertEquals(e.decodeStatus(same, 0, same.length), 200, "the same value twice");
  assertEquals(e.contentLength, 1);
  const letters = Uint8Array.from([0x88, 0x0f, 0x0d, 2, 0x31, 0x78]);
  assertEquals(e.decodeStatus(letters, 0, letters.length), HPACK_BAD_FIELD, "1x: malformed");
  e.decodeStatus(hex("88"), 0, 1);
  assertEquals(e.contentLength, -1, "absent");
});

Deno.test("a new entry may name an entry it evicts (RFC 7541 4.4)", () => {
  // Table of 64: "aaaa: b" (4 + 1 + 32 = 37) fits; a new entry named by index 62 with a 20-octet value
  // (4 + 20 + 32 = 56) must evict it and still keep the name.
  const d = new HpackDecoder(64);
  const first = Uint8Array.from([0x40, 4, 97, 97, 97, 97, 1, 98]);
  assertEquals(d.decodeStatus(first, 0, first.length), 0);
  const value = new Array(20).fill(0x7a);
  const second = Uint8Array.from([0x7e, 20, ...value]); // literal with indexing, name index 62
  const seen: [string, string][] = [];
  assertEquals(d.decodeStatus(second, 0, second.length, (n, v) => seen.push([n, v])), 0);
  assertEquals(seen, [["aaaa", "z".repeat(20)]]);
  const third = Uint8Array.from([0xbe]); // index 62 is now the new entry
  const again: [string, string][] = [];
  assertEquals(d.decodeStatus(third, 0, 1, (n, v) => again.push([n, v])), 0);
  assertEquals(again, seen);
  assertEquals(d.tableSizeBytes, 56);
});

Deno.test("a block inside a larger buffer (a frame in a read buffer) decodes between its offsets only", () => {
  const c61 = hex((specExamples as SpecExample[]).find((e) => e.id === "C.6.1")!.input);
  const buf = new Uint8Array(c61.length + 20).fill(0x80); // 0x80 around it: index 0, an error if read
  buf.set(c61, 7);
  const d = new HpackDecoder(256);
  assertEquals(d.decodeStatus(buf, 7, 7 + c61.length), 302);
  assertEquals(d.tableSizeBytes, 222);
  assertEquals(d.decodeStatus(buf, 7, 7), 0, "an empty block");
});

/** A literal field (without indexing, new name) of raw octets; `prefix` 0x40 adds it to the table. */
function lit(name: string, value: string, prefix = 0x00): number[] {
  const n = [...name].map((c) => c.charCodeAt(0));
  const v = [...value].map((c) => c.charCodeAt(0));
  return [prefix, n.length, ...n, v.length, ...v];
}

function code(d: HpackDecoder, bytes: number[]): number {
  const block = Uint8Array.from(bytes);
  return d.decodeStatus(block, 0, block.length);
}

Deno.test("a malformed field is decoded to the end of its block: the dynamic table stays in step", () => {
  // RFC 9113 8.1.1 makes a malformed response a stream error; the connection goes on only if the HPACK
  // state still matches the server's, so every field after the bad one is still decoded and indexed.
  const d = new HpackDecoder();
  assertEquals(code(d, [0x88, ...lit("X-Up", "v", 0x40), ...lit("x-ok", "1", 0x40)]), HPACK_BAD_FIELD);
  assertEquals(d.tableSizeBytes, (4 + 1 + 32) * 2);
  const seen: [string, string][] = [];
  const next = Uint8Array.from([0x88, 0xbe]); // index 62: the newest entry, x-ok
  assertEquals(d.decodeStatus(next, 0, next.length, (n, v) => seen.push([n, v])), 200);
  assertEquals(seen, [[":status", "200"], ["x-ok", "1"]]);
  // A bad :status too: the rest of the block is read.
  const e = new HpackDecoder();
  assertEquals(code(e, [0x08, 2, 0x32, 0x30, ...lit("x-ok", "1", 0x40)]), HPACK_BAD_STATUS);
  assertEquals(e.tableSizeBytes, 4 + 1 + 32);
});

Deno.test("a dynamic entry made from a malformed field stays malformed when referenced again", () => {
  const d = new HpackDecoder();
  assertEquals(code(d, [0x88, ...lit("x-a", "a\nb", 0x40), ...lit("X-B", "b", 0x40)]), HPACK_BAD_FIELD);
  assertEquals(code(d, [0x88, 0xbf]), HPACK_BAD_FIELD, "indexed: x-a with LF in its value");
  // Literals without indexing (the table stays as it is) naming them: x-a's name is fine, X-B's is not.
  assertEquals(code(d, [0x88, 0x0f, 0x30, 1, 0x76]), 200, "name index 63: x-a");
  assertEquals(code(d, [0x88, 0x0f, 0x2f, 1, 0x76]), HPACK_BAD_FIELD, "name index 62: X-B, upper case");
});

Deno.test("RFC 9113 8.2.1: a colon inside a name, whitespace at either end of a value are malformed", () => {
  const cases: [number[], number][] = [
    [lit("x:y", "v"), HPACK_BAD_FIELD],
    [lit("::status", "200"), HPACK_BAD_FIELD],
    [lit("x", " v"), HPACK_BAD_FIELD],
    [lit("x", "v "), HPACK_BAD_FIELD],
    [lit("x", "\tv"), HPACK_BAD_FIELD],
    [lit("x", "v\t"), HPACK_BAD_FIELD],
    [lit("x", " "), HPACK_BAD_FIELD],
    [[0x1f, 0x10, 2, 0x20, 0x61], HPACK_BAD_FIELD], // never indexed, static name 31 (content-type)
    [[0x88, ...lit("x", "a b\tc")], 200], // inside a value: fine
    [[0x88, ...lit("x", "")], 200], // empty value: fine
    [[0x88, ...lit("x-\u00e9", "v")], HPACK_BAD_FIELD], // 0xe9 in a name
    [[0x88, ...lit("x", "\u00e9\u0001\u007f")], 200], // obs-text and controls other than NUL/CR/LF
  ];
  for (const [bytes, want] of cases) {
    assertEquals(code(new HpackDecoder(), bytes), want, JSON.stringify(bytes));
  }
});

Deno.test("RFC 9113 8.2.2: connection-specific fields are malformed; te only as `trailers`", () => {
  const cases: [number[], number][] = [
    [[0x88, ...lit("connection", "close")], HPACK_BAD_FIELD],
    [[0x88, ...lit("keep-alive", "timeout=5")], HPACK_BAD_FIELD],
    [[0x88, ...lit("proxy-connection", "keep-alive")], HPACK_BAD_FIELD],
    [[0x88, ...lit("transfer-encoding", "chunked")], HPACK_BAD_FIELD],
    [[0x88, 0x0f, 0x2a, 7, ...[..."chunked"].map((c) => c.charCodeAt(0))], HPACK_BAD_FIELD], // static 57
    [[0x88, ...lit("upgrade", "h2c")], HPACK_BAD_FIELD],
    [[0x88, ...lit("te", "gzip")], HPACK_BAD_FIELD],
    [[0x88, ...lit("te", "trailers")], 200],
    [[0x88, ...lit("te", "Trailers")], 200],
    [[0x88, ...lit("connectio", "x"), ...lit("upgrades", "x"), ...lit("tee", "x")], 200],
  ];
  for (const [bytes, want] of cases) {
    assertEquals(code(new HpackDecoder(), bytes), want, JSON.stringify(bytes));
  }
  // By reference too: an entry named `connection` indexed later.
  const d = new HpackDecoder();
  assertEquals(code(d, [0x88, ...lit("connection", "close", 0x40)]), HPACK_BAD_FIELD);
  assertEquals(code(d, [0x88, 0xbe]), HPACK_BAD_FIELD);
});

Deno.test("pseudo-headers other than :status are reported (a response must not carry them)", () => {
  const d = new HpackDecoder();
  assertEquals(code(d, [0x88, 0x82]), 200); // :method GET (static 2)
  assertEquals(d.otherPseudo, true);
  assertEquals(code(d, [0x88]), 200);
  assertEquals(d.otherPseudo, false);
  assertEquals(code(d, [...lit(":foo", "x"), 0x88]), 200);
  assertEquals(d.otherPseudo, true);
  assertEquals(code(d, [...lit(":status", "204"), 0x0f, 0x0d, 1, 0x30]), 204);
  assertEquals(d.otherPseudo, false);
});

Deno.test("integers at every prefix size: 2^N - 1 exactly, leading zero continuation octets", () => {
  const d = new HpackDecoder();
  // 4-bit prefix: name index 15 (accept-charset) as 0f 00, and as 0f 80 80 00 (zero continuation octets).
  const seen: string[] = [];
  for (const bytes of [[0x0f, 0x00, 1, 0x76], [0x0f, 0x80, 0x80, 0x00, 1, 0x76], [0x01, 1, 0x76]]) {
    const block = Uint8Array.from(bytes);
    assertEquals(d.decodeStatus(block, 0, block.length, (n) => seen.push(n)), 0, JSON.stringify(bytes));
  }
  assertEquals(seen, ["accept-charset", "accept-charset", ":authority"]);
  // 7-bit string length of exactly 127 (7f 00), and of 127 with 4 zero continuation octets.
  const v = new Array(127).fill(0x76);
  assertEquals(code(d, [0x88, 0x00, 1, 0x78, 0x7f, 0x00, ...v]), 200);
  assertEquals(code(d, [0x88, 0x00, 1, 0x78, 0x7f, 0x80, 0x80, 0x80, 0x80, 0x00, ...v]), 200);
  // 5-bit size update of exactly 31 (3f 00), then 0 and 4096 (3f e1 1f) in a row at the block start.
  assertEquals(code(d, [0x3f, 0x00, 0x20, 0x3f, 0xe1, 0x1f, 0x88]), 200);
  // 6-bit name index 63 (7f 00) and 7-bit index 127 (ff 00) need that many dynamic entries.
  const e = new HpackDecoder();
  const fill: number[] = [];
  for (let k = 0; k < 66; k++) fill.push(...lit(`x${k}`, "v", 0x40));
  assertEquals(code(e, fill), 0);
  const names: string[] = [];
  for (const bytes of [[0x7f, 0x00, 1, 0x77], [0xff, 0x00]]) {
    const block = Uint8Array.from(bytes);
    assertEquals(e.decodeStatus(block, 0, block.length, (n) => names.push(n)), 0);
  }
  // Index 63 = dynamic 2 = x64 (before the new entry); then index 127 = dynamic 66 (x1, the new entry
  // counted).
  assertEquals(names, ["x64", "x1"]);
});

Deno.test("the static table is RFC 7541 Appendix A, entry for entry (as hpack.js has it)", () => {
  assertEquals(STATIC_TABLE.length, 61);
  assertEquals(
    STATIC_TABLE.map(([n, v]) => [n, v]),
    (hpackStatic.table as { name: string; value: string }[]).map((e) => [e.name, e.value]),
  );
  // And byte for byte as the decoder reads it: every indexed field.
  for (let i = 1; i <= 61; i++) {
    const fields: [string, string][] = [];
    new HpackDecoder().decodeStatus(Uint8Array.of(0x80 | i), 0, 1, (n, v) => fields.push([n, v]));
    assertEquals(fields, [[...STATIC_TABLE[i - 1]]], `index ${i}`);
  }
});
