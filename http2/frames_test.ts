import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  applySettings,
  CLIENT_PREFACE,
  errorCodeName,
  FLAG_ACK,
  FLOW_CONTROL_ERROR,
  FRAME_SIZE_ERROR,
  frameFlags,
  frameLength,
  frameStreamId,
  frameType,
  GOAWAY,
  PeerSettings,
  PING,
  PROTOCOL_ERROR,
  readUint31,
  readUint32,
  RST_STREAM,
  SETTINGS,
  SETTINGS_ENABLE_PUSH,
  SETTINGS_INITIAL_WINDOW_SIZE,
  SETTINGS_MAX_CONCURRENT_STREAMS,
  SETTINGS_MAX_FRAME_SIZE,
  WINDOW_UPDATE,
  writeFrameHeader,
  writeGoaway,
  writePing,
  writeRstStream,
  writeSettings,
  writeSettingsAck,
  writeWindowUpdate,
} from "./frames.ts";

Deno.test("frame header: written and read back at an offset, the reserved bit dropped", () => {
  const buf = new Uint8Array(32);
  const end = writeFrameHeader(buf, 3, 0x12345, 0x1, 0x25, 0x7fff_ffff);
  assertEquals(end, 12);
  assertEquals(
    [frameLength(buf, 3), frameType(buf, 3), frameFlags(buf, 3), frameStreamId(buf, 3)],
    [0x12345, 1, 0x25, 0x7fff_ffff],
  );
  buf[8] |= 0x80; // a peer setting the reserved bit: ignored on receipt (RFC 9113 4.1)
  assertEquals(frameStreamId(buf, 3), 0x7fff_ffff);
});

Deno.test("the client preface is the 24 octets of RFC 9113 3.4", () => {
  assertEquals(new TextDecoder().decode(CLIENT_PREFACE), "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
  assertEquals(CLIENT_PREFACE.length, 24);
});

Deno.test("control frames: SETTINGS, ACK, WINDOW_UPDATE, PING, RST_STREAM, GOAWAY carry their fields", () => {
  const buf = new Uint8Array(128);
  let p = writeSettings(buf, 0, [[SETTINGS_INITIAL_WINDOW_SIZE, 16 << 20], [SETTINGS_ENABLE_PUSH, 0]]);
  assertEquals([frameType(buf, 0), frameLength(buf, 0), readUint32(buf, 11)], [SETTINGS, 12, 16 << 20]);
  const ack = p;
  p = writeSettingsAck(buf, p);
  assertEquals([frameType(buf, ack), frameFlags(buf, ack), frameLength(buf, ack)], [SETTINGS, FLAG_ACK, 0]);
  const wu = p;
  p = writeWindowUpdate(buf, p, 5, 0x7fff_ffff);
  assertEquals([frameType(buf, wu), frameStreamId(buf, wu), readUint31(buf, wu + 9)], [
    WINDOW_UPDATE,
    5,
    0x7fff_ffff,
  ]);
  const ping = p;
  const data = Uint8Array.of(9, 1, 2, 3, 4, 5, 6, 7, 8);
  p = writePing(buf, p, true, data, 1);
  assertEquals([frameType(buf, ping), frameFlags(buf, ping), [...buf.subarray(ping + 9, p)]], [
    PING,
    FLAG_ACK,
    [1, 2, 3, 4, 5, 6, 7, 8],
  ]);
  const rst = p;
  p = writeRstStream(buf, p, 7, 0x8);
  assertEquals([frameType(buf, rst), frameStreamId(buf, rst), readUint32(buf, rst + 9)], [RST_STREAM, 7, 8]);
  const go = p;
  p = writeGoaway(buf, p, 41, PROTOCOL_ERROR);
  assertEquals([frameType(buf, go), readUint31(buf, go + 9), readUint32(buf, go + 13), p - go], [
    GOAWAY,
    41,
    PROTOCOL_ERROR,
    17,
  ]);
});

function settingsPayload(pairs: [number, number][]): Uint8Array {
  const buf = new Uint8Array(9 + 6 * pairs.length);
  writeSettings(buf, 0, pairs);
  return buf;
}

Deno.test("SETTINGS: applied in order, unknown identifiers ignored", () => {
  const buf = settingsPayload([[SETTINGS_MAX_CONCURRENT_STREAMS, 100], [0x99, 7], [
    SETTINGS_MAX_CONCURRENT_STREAMS,
    3,
  ]]);
  const peer = new PeerSettings();
  assertEquals(applySettings(buf, 9, buf.length, peer), null);
  assertEquals(peer.maxConcurrentStreams, 3);
});

Deno.test("SETTINGS: the ranges of RFC 9113 6.5.2 are checked, each with its error code", () => {
  const cases: Array<[[number, number][], number | null]> = [
    [[[SETTINGS_ENABLE_PUSH, 2]], PROTOCOL_ERROR],
    [[[SETTINGS_INITIAL_WINDOW_SIZE, 0x8000_0000]], FLOW_CONTROL_ERROR],
    [[[SETTINGS_INITIAL_WINDOW_SIZE, 0x7fff_ffff]], null],
    [[[SETTINGS_MAX_FRAME_SIZE, 16_383]], PROTOCOL_ERROR],
    [[[SETTINGS_MAX_FRAME_SIZE, 16_777_216]], PROTOCOL_ERROR],
    [[[SETTINGS_MAX_FRAME_SIZE, 16_777_215]], null],
  ];
  for (const [pairs, code] of cases) {
    const buf = settingsPayload(pairs);
    assertEquals(
      applySettings(buf, 9, buf.length, new PeerSettings())?.errorCode ?? null,
      code,
      JSON.stringify(pairs),
    );
  }
  // RFC 9113 6.5.2: a server may only send SETTINGS_ENABLE_PUSH 0; a client treats 1 as PROTOCOL_ERROR.
  const push = settingsPayload([[SETTINGS_ENABLE_PUSH, 1]]);
  assertEquals(applySettings(push, 9, push.length, new PeerSettings())?.errorCode, PROTOCOL_ERROR);
  const off = settingsPayload([[SETTINGS_ENABLE_PUSH, 0]]);
  assertEquals(applySettings(off, 9, off.length, new PeerSettings()), null);
  const odd = new Uint8Array(5);
  assertEquals(applySettings(odd, 0, 5, new PeerSettings())?.errorCode, FRAME_SIZE_ERROR);
});

Deno.test("error codes are named, unknown ones in hex", () => {
  assertEquals([errorCodeName(0x7), errorCodeName(0xd), errorCodeName(0x42)], [
    "REFUSED_STREAM",
    "HTTP_1_1_REQUIRED",
    "0x42",
  ]);
});
