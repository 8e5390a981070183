/**
 * @module
 * permessage-deflate (RFC 7692) against the RFC's own examples (7.2.3) and the faults a server can
 * cause: the parser fed whole and byte by byte with the extension agreed (RSV1 where it may and may not
 * be, a decompression bomb against the cap, data that does not inflate, text invalid once inflated),
 * the encoder's compressed frames, and the strict check of the server's answer to the offer.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { constants, deflateRawSync, inflateRawSync } from "node:zlib";
import { FrameParser } from "./frame_parser.ts";
import { MaskKeys, MessageTemplate } from "./frame_encoder.ts";
import { acceptOf, handshakeRequest } from "./handshake.ts";
import { readHandshake } from "./handshake_answer.ts";
import { OP_BINARY, OP_TEXT } from "./opcodes.ts";

type Event = [string, ...unknown[]];

/** Parses `bytes` (deflate agreed unless `deflate` is false) whole and byte by byte; both must agree. */
function parse(bytes: number[] | Uint8Array, deflate = true, max?: number) {
  const input = Uint8Array.from(bytes);
  const run = (step: number) => {
    const events: Event[] = [];
    const decode = (b: Uint8Array, s: number, e: number) => new TextDecoder().decode(b.subarray(s, e));
    const parser = new FrameParser({
      onMessage: (text, b, s, e) => events.push(["message", text, text ? decode(b, s, e) : e - s]),
      onPing: (b, s, e) => events.push(["ping", decode(b, s, e)]),
      onPong: () => events.push(["pong"]),
      onClose: (code) => events.push(["close", code]),
    }, max);
    parser.deflate = deflate;
    for (
      let i = 0;
      i < input.length && parser.feed(input.slice(i, i + step), 0, Math.min(step, input.length - i));
      i += step
    );
    return { events, fault: parser.fault, message: parser.faultMessage };
  };
  const whole = run(input.length || 1);
  const split = run(1);
  assertEquals([split.events, split.fault], [whole.events, whole.fault]);
  return whole;
}

/** A server frame (unmasked) with `payload`; `b0` carries FIN, RSV and the opcode. */
function frame(b0: number, payload: Uint8Array | number[]): number[] {
  const length = payload.length;
  const head = length < 126
    ? [b0, length]
    : length < 65536
    ? [b0, 126, length >> 8, length & 0xff]
    : [b0, 127, 0, 0, 0, 0, length >>> 24, (length >>> 16) & 0xff, (length >>> 8) & 0xff, length & 0xff];
  return [...head, ...payload];
}

/** A message compressed as RFC 7692 7.2.1 says, independently of the code under test. */
function compress(data: Uint8Array | string): Uint8Array {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const out = deflateRawSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH });
  return out.subarray(0, out.length - 4);
}

const HELLO_DEFLATED = [0xf2, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00];

Deno.test("RFC 7692 7.2.3: compressed Hello whole, in two fragments, as a stored block, with BFINAL", () => {
  assertEquals(parse([0xc1, 0x07, ...HELLO_DEFLATED]), {
    events: [["message", true, "Hello"]],
    fault: null,
    message: "",
  });
  assertEquals(parse([0x41, 0x03, 0xf2, 0x48, 0xcd, 0x80, 0x04, 0xc9, 0xc9, 0x07, 0x00]).events, [
    ["message", true, "Hello"],
  ]);
  const stored = [0xc1, 0x0b, 0x00, 0x05, 0x00, 0xfa, 0xff, 0x48, 0x65, 0x6c, 0x6c, 0x6f, 0x00];
  assertEquals(parse(stored).events, [["message", true, "Hello"]]);
  assertEquals(parse([0xc1, 0x08, 0xf3, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00, 0x00]).events, [
    ["message", true, "Hello"],
  ]);
});

Deno.test("permessage-deflate: big messages across reads and fragments, a ping between, uncompressed beside", () => {
  const text = "load ".repeat(20_000) + "✓";
  const packed = compress(text);
  const cut = 1000;
  const bytes = [
    ...frame(0x41, packed.subarray(0, cut)),
    ...frame(0x89, [0x70]),
    ...frame(0x80, packed.subarray(cut)),
    ...frame(0x82, [1, 2, 3]),
    ...frame(0xc2, compress(new Uint8Array(70_000))),
    ...frame(0xc1, compress("")),
  ];
  assertEquals(parse(bytes).events, [
    ["ping", "p"],
    ["message", true, text],
    ["message", false, 3],
    ["message", false, 70_000],
    ["message", true, ""],
  ]);
});

Deno.test("permessage-deflate: RSV1 only on a data message's first frame, only when agreed", () => {
  const fault = (bytes: number[], deflate = true) => {
    const r = parse(bytes, deflate);
    return [r.fault, r.message];
  };
  assertEquals(fault([0xc1, 0x07, ...HELLO_DEFLATED], false), [
    "protocol",
    "reserved bits set with no extension agreed",
  ]);
  assertEquals(fault([0x41, 0x03, 0xf2, 0x48, 0xcd, 0xc0, 0x04, 0xc9, 0xc9, 0x07, 0x00]), [
    "protocol",
    "RSV1 set on a continuation frame",
  ]);
  assertEquals(fault([0xc9, 0x00]), ["protocol", "RSV1 set on a control frame"]);
  assertEquals(fault([0xc3, 0x00]), ["protocol", "reserved data opcode"]);
  assertEquals(fault([0xa1, 0x00]), ["protocol", "RSV2 or RSV3 set, which no agreed extension uses"]);
  assertEquals(fault([0x91, 0x00]), ["protocol", "RSV2 or RSV3 set, which no agreed extension uses"]);
  // Agreed, a message may still come uncompressed.
  assertEquals(parse([0x81, 0x02, 0x68, 0x69]).events, [["message", true, "hi"]]);
});

Deno.test("permessage-deflate: a bomb stops at the cap (too-big); garbage and bad UTF-8 once inflated", () => {
  const bomb = compress(new Uint8Array(10_000_000));
  const big = parse(frame(0xc2, bomb), true, 1 << 20);
  assertEquals([big.fault, big.message], ["too-big", "message inflates past the 1048576-byte cap"]);
  assertEquals(parse(frame(0xc2, compress(new Uint8Array(1 << 20))), true, 1 << 20).events, [
    ["message", false, 1 << 20],
  ]);
  // Incompressible bytes at the cap take a few more bytes compressed: still within it.
  const noise = Uint8Array.from({ length: 1 << 20 }, (_, i) => (i * 2654435761) >>> 24);
  assertEquals(parse(frame(0xc2, compress(noise)), true, 1 << 20).events, [["message", false, 1 << 20]]);
  const garbage = parse([0xc1, 0x04, 0xff, 0xff, 0xff, 0x01]);
  assertEquals([garbage.fault, garbage.message], ["protocol", "compressed message does not inflate"]);
  assertEquals(parse(frame(0xc1, compress(Uint8Array.of(0x61, 0xc0, 0x80)))).fault, "bad-utf8");
  // The same bytes as binary are fine: UTF-8 is checked on what the message inflates to.
  assertEquals(parse(frame(0xc2, compress(Uint8Array.of(0x61, 0xc0, 0x80)))).events, [["message", false, 3]]);
});

/** The frames of masked client bytes: [b0, unmasked payload] each. */
function unmaskFrames(bytes: Uint8Array): [number, Uint8Array][] {
  const frames: [number, Uint8Array][] = [];
  for (let at = 0; at < bytes.length;) {
    const b1 = bytes[at + 1] & 0x7f;
    let length = b1, header = 2;
    if (b1 === 126) [length, header] = [(bytes[at + 2] << 8) | bytes[at + 3], 4];
    if (b1 === 127) {
      [length, header] = [new DataView(bytes.buffer, bytes.byteOffset + at + 6).getUint32(0), 10];
    }
    const key = bytes.subarray(at + header, at + header + 4);
    const payload = bytes.slice(at + header + 4, at + header + 4 + length).map((b, i) => b ^ key[i & 3]);
    frames.push([bytes[at], payload]);
    at += header + 4 + length;
  }
  return frames;
}

const inflate = (parts: Uint8Array[]) =>
  inflateRawSync(Uint8Array.from([...parts.flatMap((p) => [...p]), 0, 0, 0xff, 0xff]), {
    finishFlush: constants.Z_SYNC_FLUSH,
  });

Deno.test("permessage-deflate: a compressed template masks per send and inflates back to its message", () => {
  const keys = new MaskKeys();
  const hello = new MessageTemplate(OP_TEXT, new TextEncoder().encode("Hello"), 0, true);
  for (let send = 0; send < 2; send++) {
    const frames = unmaskFrames(hello.mask(keys));
    assertEquals(frames.map(([b0, p]) => [b0, [...p]]), [[0xc1, HELLO_DEFLATED]]);
  }
  assertEquals(hello.payloadBytes, 5);
  // Half random (it stays about its size compressed, so it is cut into fragments), half zeros.
  const message = new Uint8Array(100_000);
  crypto.getRandomValues(message.subarray(0, 50_000));
  for (const fragment of [0, 7, 4096]) {
    const frames = unmaskFrames(new MessageTemplate(OP_BINARY, message, fragment, true).mask(keys));
    assertEquals(frames[0][0], frames.length === 1 ? 0xc2 : 0x42);
    for (const [b0] of frames.slice(1)) assertEquals(b0 & 0x70, 0, "RSV1 only on the first frame");
    assertEquals(fragment === 0 || frames.length > 1, true);
    assertEquals(new Uint8Array(inflate(frames.map(([, p]) => p))), message, `fragment ${fragment}`);
  }
});

Deno.test("RFC 7692 5, 7.1: the offer, and the server's answer checked strictly", () => {
  const key = "dGhlIHNhbXBsZSBub25jZQ==";
  const request = new TextDecoder().decode(handshakeRequest(new URL("ws://h/"), key, { deflate: true }));
  assertEquals(
    request.split("\r\n").includes(
      "Sec-WebSocket-Extensions: permessage-deflate; client_no_context_takeover; server_no_context_takeover",
    ),
    true,
  );
  const plain = new TextDecoder().decode(handshakeRequest(new URL("ws://h/"), key));
  assertEquals(plain.includes("Extensions"), false);
  const answer = (extensions: string[], offered = true) => {
    const lines = [
      "HTTP/1.1 101 Switching Protocols",
      "Upgrade: websocket",
      "Connection: Upgrade",
      `Sec-WebSocket-Accept: ${acceptOf(key)}`,
      ...extensions.map((e) => `Sec-WebSocket-Extensions: ${e}`),
    ];
    const bytes = new TextEncoder().encode(lines.join("\r\n") + "\r\n\r\n");
    const r = readHandshake(bytes, bytes.length, key, [], 0, offered);
    return r.kind === "ok" ? r.deflate : r.kind === "failed" ? [r.fault, r.message] : r.kind;
  };
  assertEquals(answer([]), false);
  for (
    const good of [
      "permessage-deflate; server_no_context_takeover",
      "permessage-deflate; client_no_context_takeover; server_no_context_takeover",
      "PerMessage-Deflate;server_no_context_takeover;server_max_window_bits=8",
      'permessage-deflate; server_max_window_bits="15"; server_no_context_takeover',
    ]
  ) assertEquals(answer([good]), true, good);
  const bad: [string[], string][] = [
    [["permessage-deflate"], "permessage-deflate answer lacks server_no_context_takeover, which was offered"],
    [["x-webkit-deflate-frame"], 'server answered with extension "x-webkit-deflate-frame", not offered'],
    [
      ["permessage-deflate; server_no_context_takeover, permessage-deflate; server_no_context_takeover"],
      "server answered with more than one extension",
    ],
    [
      ["permessage-deflate; server_no_context_takeover", "permessage-deflate; server_no_context_takeover"],
      "server answered with more than one extension",
    ],
    [
      ["permessage-deflate; server_no_context_takeover; client_max_window_bits=15"],
      "permessage-deflate answer has client_max_window_bits, which was not offered",
    ],
    [
      ["permessage-deflate; server_no_context_takeover; server_max_window_bits=7"],
      "permessage-deflate answer's server_max_window_bits is not 8 to 15",
    ],
    [
      ["permessage-deflate; server_no_context_takeover; server_max_window_bits=16"],
      "permessage-deflate answer's server_max_window_bits is not 8 to 15",
    ],
    [
      ["permessage-deflate; server_no_context_takeover; server_max_window_bits"],
      "permessage-deflate answer's server_max_window_bits is not 8 to 15",
    ],
    [
      ["permessage-deflate; server_no_context_takeover=1"],
      "permessage-deflate answer gives server_no_context_takeover a value",
    ],
    [
      ["permessage-deflate; server_no_context_takeover; client_no_context_takeover=x"],
      "permessage-deflate answer gives client_no_context_takeover a value",
    ],
    [
      ["permessage-deflate; server_no_context_takeover; server_no_context_takeover"],
      "permessage-deflate answer repeats server_no_context_takeover",
    ],
    [
      ["permessage-deflate; server_no_context_takeover; mode=fast"],
      'permessage-deflate answer has unknown parameter "mode"',
    ],
  ];
  for (const [extensions, message] of bad) assertEquals(answer(extensions), ["handshake", message]);
  assertEquals(answer(["permessage-deflate; server_no_context_takeover"], false), [
    "handshake",
    "server answered with an extension none was offered",
  ]);
});
