/**
 * @module
 * Fuzz test of the HPACK decoder: 100,000 inputs from a fixed seed (HPACK_FUZZ_INPUTS scales a quick local
 * run; with CI=true all of them run). Each input is a short sequence of header blocks for one fresh decoder,
 * as one connection's responses arrive: valid blocks written by an independent encoder (hpack.js, with
 * Huffman strings, dynamic table indexing and eviction at random table sizes), then maybe damaged (bytes
 * flipped, cut short, junk spliced in, a table size update or a huge integer put in front), or random bytes.
 * Intact sequences must decode to exactly the fields that were encoded; every input must end as a status, 0
 * or one negative HPACK_* code, never an exception, with the dynamic table never above its advertised
 * maximum. Deterministic: a failure names the input index to replay.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import hpack from "hpack.js";
import { mulberry32 as rng } from "../../tests/fixtures/seeded_random.ts";
import { HpackDecoder } from "./decoder.ts";

/** CI always runs all 100,000; HPACK_FUZZ_INPUTS scales a local run. */
const INPUTS = Deno.env.get("CI") === "true" ? 100_000 : Number(Deno.env.get("HPACK_FUZZ_INPUTS") ?? 100_000);
const POOL = 1500;
const TABLE_SIZES = [0, 64, 256, 4096];
const NAMES = [
  "content-type",
  "content-length",
  "cache-control",
  "date",
  "server",
  "x-request-id",
  "vary",
  "etag",
];
const STATUSES = ["200", "204", "206", "304", "404", "500", "302", "103"];

interface Sequence {
  tableBytes: number;
  blocks: Uint8Array[];
  fields: [string, string][][];
}

function value(r: () => number): string {
  // Mostly ASCII, with octets whose Huffman codes are 19-30 bits (obs-text, controls other than NUL/CR/LF):
  // servers send UTF-8 and Latin-1 in values, and a code that long straddles the decoder's 32-bit window.
  const chars =
    'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_.,;=/:"\u0080\u00e9\u00ff\u0001\u0016\u007f\t';
  let s = "";
  for (let n = Math.floor(r() * (r() < 0.1 ? 300 : 30)); n > 0; n--) {
    s += chars[Math.floor(r() * chars.length)];
  }
  return s.trim();
}

/** A valid sequence of 1-4 response blocks from one hpack.js compressor. */
function validSequence(r: () => number): Sequence {
  const tableBytes = TABLE_SIZES[Math.floor(r() * TABLE_SIZES.length)];
  const comp = hpack.compressor.create({ table: { maxSize: tableBytes } });
  const seq: Sequence = { tableBytes, blocks: [], fields: [] };
  for (let b = 1 + Math.floor(r() * 4); b > 0; b--) {
    const list: [string, string][] = [];
    const length = String(Math.floor(r() * 1e6)); // one value per list: two different ones are malformed
    if (r() < 0.9) list.push([":status", STATUSES[Math.floor(r() * STATUSES.length)]]);
    for (let k = Math.floor(r() * 8); k > 0; k--) {
      const name = r() < 0.8 ? NAMES[Math.floor(r() * NAMES.length)] : `x-h${Math.floor(r() * 50)}`;
      list.push([name, name === "content-length" ? length : value(r)]);
    }
    comp.write(list.map(([name, v]) => ({ name, value: v, huffman: r() < 0.7, neverIndex: r() < 0.1 })));
    seq.blocks.push(new Uint8Array(comp.read()));
    seq.fields.push(list);
  }
  return seq;
}

/** Damages one block of a copy of `seq` in one of several ways. */
function damage(seq: Sequence, r: () => number): Uint8Array[] {
  const blocks = seq.blocks.map((b) => b.slice());
  const i = Math.floor(r() * blocks.length);
  const bytes = blocks[i];
  const kind = r();
  if (kind < 0.35) {
    for (let k = 1 + Math.floor(r() * 4); k > 0 && bytes.length > 0; k--) {
      bytes[Math.floor(r() * bytes.length)] = r() * 256;
    }
  } else if (kind < 0.55) blocks[i] = bytes.subarray(0, Math.floor(r() * bytes.length));
  else if (kind < 0.75) {
    const at = Math.floor(r() * (bytes.length + 1));
    const junk = Uint8Array.from({ length: 1 + Math.floor(r() * 32) }, () => r() * 256);
    blocks[i] = Uint8Array.from([...bytes.subarray(0, at), ...junk, ...bytes.subarray(at)]);
  } else if (kind < 0.9) { // a size update at the front: within or above the maximum
    const size = Math.floor(r() * (seq.tableBytes + 64));
    const update = size < 31 ? [0x20 | size] : [0x3f, ...varint(size - 31)];
    blocks[i] = Uint8Array.from([...update, ...bytes]);
  } else { // an index or a string length far past anything
    blocks[i] = Uint8Array.from([r() < 0.5 ? 0xff : 0x7f, 0xff, 0xff, 0xff, 0xff, 0x7f, ...bytes]);
  }
  return blocks;
}

function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 128) {
    out.push((n % 128) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

Deno.test(`HPACK fuzz: ${INPUTS} generated block sequences end as a status or one code, never a throw`, () => {
  const r = rng(0x4ac4);
  const pool = Array.from({ length: POOL }, () => validSequence(r));
  const totals = { intact: 0, decoded: 0, errors: 0 };
  const started = performance.now();
  for (let n = 0; n < INPUTS; n++) {
    const seq = pool[Math.floor(r() * POOL)];
    const kind = r();
    const intact = kind < 0.3;
    const blocks = intact ? seq.blocks : kind < 0.9 ? damage(seq, r) : [
      Uint8Array.from({ length: Math.floor(r() * 200) }, () => r() * 256),
    ];
    const d = new HpackDecoder(seq.tableBytes, 16384);
    for (let b = 0; b < blocks.length; b++) {
      const fields: [string, string][] = [];
      let code: number;
      try {
        code = d.decodeStatus(
          blocks[b],
          0,
          blocks[b].length,
          intact ? (k, v) => fields.push([k, v]) : undefined,
        );
      } catch (err) {
        throw new Error(`input ${n} block ${b} threw: ${(err as Error).message}`, { cause: err });
      }
      assert(d.tableSizeBytes <= seq.tableBytes, `input ${n}: table ${d.tableSizeBytes} > ${seq.tableBytes}`);
      assert(
        Number.isInteger(code) && code >= -7 && code <= 999,
        `input ${n}: ${code}`,
      );
      if (intact) {
        assertEquals(fields, seq.fields[b], `input ${n} block ${b}`);
        const status = seq.fields[b].find(([k]) => k === ":status");
        assertEquals(code, status ? Number(status[1]) : 0, `input ${n} block ${b}`);
        totals.intact++;
      }
      if (code < 0) {
        totals.errors++;
        break; // the connection fails with COMPRESSION_ERROR: nothing more is decoded
      }
      totals.decoded++;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(`${INPUTS} inputs in ${seconds.toFixed(1)} s: ${JSON.stringify(totals)}`);
  // Both outcomes must be common, or the test proves little.
  assert(totals.decoded > INPUTS / 2, JSON.stringify(totals));
  assert(totals.errors > INPUTS / 5, JSON.stringify(totals));
});
