/**
 * @module
 * Differential tests of the HPACK decoder against hpack.js, an independent implementation. Header lists
 * of random VALID fields (names from the token alphabet, values of every octet but NUL, CR and LF) and a
 * few malformed ones are encoded by hpack.js's compressor at random table sizes, with dynamic table size
 * updates at block starts (several in a row, down to 0 and back up), indexed and never-indexed fields,
 * Huffman or raw; each block is decoded by loadlab and by hpack.js's decompressor. The fields, in order,
 * and the dynamic table's size must agree after every block, and the code must be the status, or
 * HPACK_BAD_FIELD exactly when the list breaks an RFC 9113 8.2 rule (which the test decides on its own).
 * And the Huffman decoder against a bit-by-bit decoder built from hpack.js's code table, on random and
 * damaged strings. Deterministic: a failure names the input index to replay.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { Buffer } from "node:buffer";
import hpack from "hpack.js";
import hpackHuffman from "hpack.js/lib/hpack/huffman.js";
import { mulberry32 as rng } from "../../tests/fixtures/seeded_random.ts";
import { HPACK_BAD_FIELD, HpackDecoder } from "./decoder.ts";
import { HUFFMAN_CODES, HUFFMAN_LENGTHS, huffmanDecode } from "./huffman.ts";
import { huffmanEncode } from "../../tests/fixtures/hpack_huffman.ts";

const SEQUENCES = Deno.env.get("CI") === "true"
  ? 3_000
  : Number(Deno.env.get("HPACK_DIFF_SEQUENCES") ?? 3_000);
const TOKEN = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyz";
const COMMON = ["content-type", "date", "server", "cache-control", "set-cookie", "x-request-id", "vary"];
const CONNECTION_SPECIFIC = ["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade"];
const STATUSES = ["200", "204", "301", "304", "404", "500", "103"];

function pick<T>(r: () => number, items: readonly T[]): T {
  return items[Math.floor(r() * items.length)];
}

function name(r: () => number, pool: string[]): string {
  const roll = r();
  if (roll < 0.3 && pool.length > 0) return pick(r, pool); // a name the table may hold
  if (roll < 0.5) return pick(r, COMMON);
  let s = "";
  for (let n = 1 + Math.floor(r() * 12); n > 0; n--) s += pick(r, [...TOKEN]);
  pool.push(s);
  return s;
}

/** Every octet but NUL, CR, LF; mostly printable, so values repeat and get indexed. */
function value(r: () => number): string {
  let s = "";
  for (let n = Math.floor(r() * (r() < 0.1 ? 200 : 20)); n > 0; n--) {
    let c = r() < 0.7 ? 0x20 + Math.floor(r() * 95) : 1 + Math.floor(r() * 255);
    if (c === 10 || c === 13) c = 0x61;
    s += String.fromCharCode(c);
  }
  return s;
}

/** Whether a list breaks RFC 9113 8.2 (the decoder's verdict must match). */
function malformed(list: [string, string][]): boolean {
  return list.some(([n, v]) =>
    /[A-Z]/.test(n) || CONNECTION_SPECIFIC.includes(n) || (n === "te" && v.toLowerCase() !== "trailers") ||
    /^[ \t]|[ \t]$/.test(v)
  );
}

function header(r: () => number, pool: string[]): [string, string] {
  const roll = r();
  if (roll < 0.005) return [pick(r, CONNECTION_SPECIFIC), "x"];
  if (roll < 0.01) return ["te", r() < 0.5 ? "trailers" : "gzip"];
  if (roll < 0.015) return ["x-Upper", "v"];
  if (roll < 0.03) return [name(r, pool), pick(r, [" lead", "trail\t", "in side", "\t"])];
  return [name(r, pool), value(r)];
}

function sizeUpdate(size: number): number[] {
  if (size < 31) return [0x20 | size];
  const out = [0x3f];
  for (size -= 31; size >= 128; size = Math.floor(size / 128)) out.push((size % 128) | 0x80);
  out.push(size);
  return out;
}

Deno.test(`HPACK differential: ${SEQUENCES} sequences decode as hpack.js decodes them`, () => {
  const r = rng(0x7541);
  const totals = { blocks: 0, malformed: 0, updates: 0, evicting: 0 };
  for (let n = 0; n < SEQUENCES; n++) {
    const capacity = pick(r, [0, 32, 100, 256, 1024, 4096]);
    const comp = hpack.compressor.create({ table: { maxSize: capacity } });
    const decomp = hpack.decompressor.create({ table: { maxSize: capacity } });
    const d = new HpackDecoder(capacity, 1 << 20);
    const pool: string[] = [];
    for (let b = 1 + Math.floor(r() * 8); b > 0; b--) {
      const updates: number[] = [];
      if (r() < 0.2) { // one to three updates, applied in order by both sides
        for (let k = 1 + Math.floor(r() * 3); k > 0; k--) {
          const size = r() < 0.3 ? 0 : Math.floor(r() * (capacity + 1));
          comp._table.updateSize(size);
          updates.push(...sizeUpdate(size));
          totals.updates++;
        }
      }
      const list: [string, string][] = [];
      if (r() < 0.9) list.push([":status", pick(r, STATUSES)]);
      for (let k = Math.floor(r() * 10); k > 0; k--) list.push(header(r, pool));
      comp.write(list.map(([n, v]) => ({ name: n, value: v, huffman: r() < 0.6, neverIndex: r() < 0.1 })));
      const block = Uint8Array.from([...updates, ...(comp.read() ?? [])]);
      const before = d.tableSizeBytes;
      const fields: [string, string][] = [];
      const code = d.decodeStatus(block, 0, block.length, (k, v) => fields.push([k, v]));
      decomp.write(Buffer.from(block));
      decomp.execute();
      const theirs: [string, string][] = [];
      for (let f = decomp.read(); f !== null; f = decomp.read()) theirs.push([f.name, f.value]);
      const where = `sequence ${n} block ${totals.blocks} (table ${capacity})`;
      assertEquals(fields, theirs, where);
      assertEquals(fields, list, where);
      assertEquals(d.tableSizeBytes, decomp._table.size, `${where}: table size`);
      const bad = malformed(list);
      const status = list[0]?.[0] === ":status" ? Number(list[0][1]) : 0;
      assertEquals(code, bad ? HPACK_BAD_FIELD : status, `${where}: ${JSON.stringify(list)}`);
      totals.blocks++;
      if (bad) totals.malformed++;
      if (d.tableSizeBytes < before) totals.evicting++;
    }
  }
  console.log(JSON.stringify(totals));
  assert(totals.malformed > 50 && totals.updates > 500 && totals.evicting > 500, JSON.stringify(totals));
});

/** hpack.js's [length, code] per symbol (256 is EOS). */
const THEIR_CODES = hpackHuffman.encode as [number, number][];

Deno.test("Huffman: the code table is hpack.js's, symbol for symbol", () => {
  assert(THEIR_CODES.length >= 256);
  for (let sym = 0; sym < THEIR_CODES.length; sym++) {
    assertEquals([HUFFMAN_LENGTHS[sym], HUFFMAN_CODES[sym]], THEIR_CODES[sym], `symbol ${sym}`);
  }
});

/** A bit-by-bit decoder from hpack.js's table with RFC 7541 5.2's rules: the reference. */
const BY_CODE = new Map(THEIR_CODES.map(([len, code], sym) => [`${len}:${code}`, sym]));
function referenceDecode(src: Uint8Array): number[] | null {
  const out: number[] = [];
  let code = 0;
  let len = 0;
  for (const octet of src) {
    for (let k = 7; k >= 0; k--) {
      code = code * 2 + ((octet >> k) & 1);
      len++;
      const sym = BY_CODE.get(`${len}:${code}`);
      if (sym === undefined) continue;
      if (sym === 256) return null; // EOS inside
      out.push(sym);
      code = 0;
      len = 0;
    }
  }
  // Padding: at most 7 bits, all ones (EOS's prefix).
  return len <= 7 && code === 2 ** len - 1 ? out : null;
}

Deno.test("Huffman differential: random and damaged strings decode as a bit-by-bit decoder says", () => {
  const r = rng(0x5a2);
  const out = new Uint8Array(1024);
  let valid = 0;
  for (let n = 0; n < 50_000; n++) {
    let src: Uint8Array;
    const kind = r();
    if (kind < 0.3) src = Uint8Array.from({ length: Math.floor(r() * 12) }, () => r() * 256);
    else {
      const text = Uint8Array.from(
        { length: Math.floor(r() * 40) },
        () => r() < 0.5 ? r() * 256 : 0x61 + r() * 26,
      );
      src = huffmanEncode(text);
      if (kind < 0.5 && src.length > 0) src[src.length - 1] ^= 1 << Math.floor(r() * 8); // padding or a code
      else if (kind < 0.6) src = Uint8Array.from([...src, r() < 0.5 ? 0xff : Math.floor(r() * 256)]);
      else if (kind < 0.7 && src.length > 0) src[Math.floor(r() * src.length)] = r() * 256;
      else if (kind < 0.75) src = Uint8Array.from([...src, 0xff, 0xff, 0xff, 0xff]); // EOS after it
    }
    const want = referenceDecode(src);
    const end = huffmanDecode(src, 0, src.length, out, 0);
    const where = `string ${n}: ${[...src].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
    if (want === null) assert(end < 0, `${where}: decoded, the reference refused it`);
    else {
      assertEquals([...out.subarray(0, Math.max(0, end))], want, where);
      valid++;
    }
  }
  assert(valid > 20_000, `valid strings: ${valid}`);
});
