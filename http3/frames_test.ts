/**
 * @module
 * HTTP/3 framing: variable-length integers (RFC 9000 A.1's examples), frames read the same whatever the
 * split of their bytes, unknown and reserved types skipped, and the errors RFC 9114 7 names for frames out
 * of place, too large, or SETTINGS it refuses.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  FRAME_DATA,
  FRAME_GOAWAY,
  FRAME_HEADERS,
  FRAME_SETTINGS,
  H3_EXCESSIVE_LOAD,
  H3_FRAME_ERROR,
  H3_FRAME_UNEXPECTED,
  H3_MISSING_SETTINGS,
  H3_SETTINGS_ERROR,
  h3ErrorName,
  H3FrameReader,
  READ_DATA,
  READ_FRAME,
  readSettings,
  SETTINGS_QPACK_BLOCKED_STREAMS,
  SETTINGS_QPACK_MAX_TABLE_CAPACITY,
  writeFrameHeader,
  writeIdFrame,
  writeSettings,
} from "./frames.ts";
import { readVarint, VARINT_TRUNCATED, varintSize, writeVarint } from "./varint.ts";

const bytes = (hex: string) =>
  Uint8Array.from(hex.replace(/\s/g, "").match(/../g) ?? [], (h) => parseInt(h, 16));
const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

Deno.test("variable-length integers: RFC 9000 A.1's examples, shortest encodings, truncation", () => {
  assertEquals(readVarint(bytes("9d7f3e7d"), 0, 4), 494878333);
  assertEquals(readVarint(bytes("7bbd"), 0, 2), 15293);
  assertEquals(readVarint(bytes("25"), 0, 1), 37);
  assertEquals(readVarint(bytes("4025"), 0, 2), 37);
  assertEquals(readVarint(bytes("9d7f3e"), 0, 3), VARINT_TRUNCATED);
  for (const v of [0, 63, 64, 16383, 16384, 2 ** 30 - 1, 2 ** 30, 2 ** 53 - 1]) {
    const buf = new Uint8Array(8);
    const end = writeVarint(buf, 0, v);
    assertEquals([end, readVarint(buf, 0, end)], [varintSize(v), v]);
  }
  assertEquals(hex(writeVarintBytes(494878333)), "9d7f3e7d");
});

function writeVarintBytes(v: number): Uint8Array {
  const buf = new Uint8Array(8);
  return buf.subarray(0, writeVarint(buf, 0, v));
}

/** Everything a reader reports for `input` fed in pieces that end at `cuts`, as text. */
function readAll(reader: H3FrameReader, input: Uint8Array, cuts: number[]): string[] {
  const seen: string[] = [];
  let from = 0;
  for (const to of [...cuts, input.length]) {
    const chunk = input.slice(from, to);
    from = to;
    for (let at = 0; at < chunk.length;) {
      at = reader.read(chunk, at, chunk.length);
      if (at < 0) return [...seen, h3ErrorName(at)];
      if (reader.event === READ_DATA) {
        seen.push(`data ${hex(chunk.subarray(reader.dataOff, reader.dataOff + reader.dataLen))}`);
      }
      if (reader.event === READ_FRAME) {
        seen.push(
          `frame ${reader.type} ${
            hex(reader.payload.subarray(reader.payloadOff, reader.payloadOff + reader.payloadLen))
          }`,
        );
      }
    }
  }
  return seen;
}

/** DATA pieces joined, as a reader splits them where the input is split. */
function joinData(seen: string[]): string[] {
  const out: string[] = [];
  for (const s of seen) {
    const last = out[out.length - 1];
    if (s.startsWith("data ") && last?.startsWith("data ")) out[out.length - 1] = last + s.slice(5);
    else out.push(s);
  }
  return out;
}

Deno.test("a request stream reads the same split anywhere; unknown and reserved types are skipped", () => {
  const buf = new Uint8Array(256);
  let at = writeFrameHeader(buf, 0, FRAME_HEADERS, 3);
  buf.set([0, 0, 0xd9], at); // an empty section prefix and :status 200... any 3 octets
  at += 3;
  at = writeFrameHeader(buf, at, 0x21 + 0x1f * 7, 4); // a reserved type (0x1f * N + 0x21)
  at += 4;
  at = writeFrameHeader(buf, at, 0xabcdef, 0); // an unknown type, empty
  at = writeFrameHeader(buf, at, FRAME_DATA, 5);
  buf.set([104, 101, 108, 108, 111], at);
  at += 5;
  at = writeFrameHeader(buf, at, FRAME_DATA, 0);
  at = writeFrameHeader(buf, at, 0x40 * 100, 2); // an unknown type in a 4-octet varint
  at += 2;
  const input = buf.subarray(0, at);
  const whole = readAll(new H3FrameReader(false), input, []);
  assertEquals(whole, ["frame 1 0000d9", "data 68656c6c6f"]);
  for (let i = 1; i < input.length; i++) {
    for (let j = i; j < input.length; j++) {
      const reader = new H3FrameReader(false);
      assertEquals(joinData(readAll(reader, input, [i, j])), whole, `cut at ${i} and ${j}`);
      assertEquals(reader.atFrameBoundary, true);
    }
  }
});

Deno.test("frames out of place, too large or of HTTP/2's types are errors", () => {
  const frame = (type: number, payload: number[]) => {
    const buf = new Uint8Array(64);
    const at = writeFrameHeader(buf, 0, type, payload.length);
    buf.set(payload, at);
    return buf.subarray(0, at + payload.length);
  };
  const settings = frame(FRAME_SETTINGS, []);
  const run = (control: boolean, ...frames: Uint8Array[]) => {
    const input = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
    frames.reduce((at, f) => (input.set(f, at), at + f.length), 0);
    return readAll(new H3FrameReader(control, 8), input, []).at(-1);
  };
  assertEquals(run(true, frame(FRAME_GOAWAY, [4])), "H3_MISSING_SETTINGS");
  assertEquals(run(true, settings, frame(FRAME_GOAWAY, [4])), "frame 7 04");
  assertEquals(run(true, settings, settings), "H3_FRAME_UNEXPECTED");
  assertEquals(run(true, settings, frame(FRAME_DATA, [1])), "H3_FRAME_UNEXPECTED");
  assertEquals(run(false, frame(FRAME_SETTINGS, [])), "H3_FRAME_UNEXPECTED");
  assertEquals(run(false, frame(FRAME_GOAWAY, [0])), "H3_FRAME_UNEXPECTED");
  assertEquals(run(false, frame(0x6, [0, 0, 0, 0, 0, 0, 0, 0])), "H3_FRAME_UNEXPECTED"); // HTTP/2's PING
  assertEquals(run(false, frame(FRAME_HEADERS, [0, 0, 1, 2, 3, 4, 5, 6, 7])), "H3_EXCESSIVE_LOAD");
  // DATA is not bounded by the frame size: it streams through.
  assertEquals(run(false, frame(FRAME_DATA, [1, 2, 3, 4, 5, 6, 7, 8, 9])), "data 010203040506070809");
  assertEquals([H3_MISSING_SETTINGS, H3_FRAME_UNEXPECTED, H3_EXCESSIVE_LOAD], [0x10a, 0x105, 0x107]);
});

Deno.test("SETTINGS written, checked, refused; the one-id frames written", () => {
  const buf = new Uint8Array(64);
  const end = writeSettings(buf, 0, [
    SETTINGS_QPACK_MAX_TABLE_CAPACITY,
    4096,
    SETTINGS_QPACK_BLOCKED_STREAMS,
    16,
  ]);
  assertEquals(hex(buf.subarray(0, end)), "0405" + "01" + "5000" + "07" + "10");
  assertEquals(readSettings(buf, 2, end - 2), 0);
  assertEquals(readSettings(bytes("0101 0102"), 0, 4), -H3_SETTINGS_ERROR); // repeated
  // HTTP/2's SETTINGS_ENABLE_PUSH
  assertEquals(readSettings(bytes("0200"), 0, 2), -H3_SETTINGS_ERROR);
  assertEquals(readSettings(bytes("21ff"), 0, 2), -H3_FRAME_ERROR); // truncated value
  assertEquals(readSettings(bytes("2a05"), 0, 2), 0); // unknown: ignored
  const goaway = writeIdFrame(buf, 0, FRAME_GOAWAY, 400);
  assertEquals(hex(buf.subarray(0, goaway)), "07024190");
});
