/**
 * @module
 * The RFC 6455 codec against the RFC's own examples (5.7, 1.3) and against every server fault the
 * parser must refuse, fed whole and byte by byte (a frame cut anywhere across reads).
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { FrameParser, type FrameSink } from "./frame_parser.ts";
import { closeFrame, MaskKeys, MessageTemplate, pongFrame } from "./frame_encoder.ts";
import { acceptOf, handshakeRequest, HandshakeTemplate } from "./handshake.ts";
import { readHandshake } from "./handshake_answer.ts";
import { OP_BINARY, OP_TEXT, UTF8_ACCEPT, UTF8_REJECT, utf8Step } from "./opcodes.ts";

type Event = [string, ...unknown[]];

function collect(): { sink: FrameSink; events: Event[] } {
  const events: Event[] = [];
  const text = (b: Uint8Array, s: number, e: number) => new TextDecoder().decode(b.subarray(s, e));
  const sink: FrameSink = {
    onMessage: (isText, b, s, e) => events.push(["message", isText, isText ? text(b, s, e) : e - s]),
    onPing: (b, s, e) => events.push(["ping", text(b, s, e)]),
    onPong: (b, s, e) => events.push(["pong", text(b, s, e)]),
    onClose: (code, b, s, e) => events.push(["close", code, text(b, s, e)]),
  };
  return { sink, events };
}

/** Parses `bytes` whole and byte by byte: both must give the same events and fault. */
function parse(bytes: number[] | Uint8Array, max?: number): { events: Event[]; fault: string | null } {
  const input = Uint8Array.from(bytes);
  const whole = collect();
  const p1 = new FrameParser(whole.sink, max);
  p1.feed(input, 0, input.length);
  const split = collect();
  const p2 = new FrameParser(split.sink, max);
  for (let i = 0; i < input.length && p2.feed(input.slice(i, i + 1), 0, 1); i++);
  assertEquals(split.events, whole.events);
  assertEquals(p2.fault, p1.fault);
  return { events: whole.events, fault: p1.fault };
}

const HELLO = [0x48, 0x65, 0x6c, 0x6c, 0x6f];

Deno.test("RFC 6455 5.7: unmasked text, fragments, ping, 256-byte and 64 KiB binary", () => {
  assertEquals(parse([0x81, 0x05, ...HELLO]).events, [["message", true, "Hello"]]);
  assertEquals(parse([0x01, 0x03, 0x48, 0x65, 0x6c, 0x80, 0x02, 0x6c, 0x6f]).events, [[
    "message",
    true,
    "Hello",
  ]]);
  assertEquals(parse([0x89, 0x05, ...HELLO]).events, [["ping", "Hello"]]);
  assertEquals(parse([0x82, 0x7e, 0x01, 0x00, ...new Uint8Array(256)]).events, [["message", false, 256]]);
  const big = [0x82, 0x7f, 0, 0, 0, 0, 0, 1, 0, 0];
  assertEquals(parse(Uint8Array.from([...big, ...new Uint8Array(65536)])).events, [[
    "message",
    false,
    65536,
  ]]);
});

Deno.test("RFC 6455 5.7: a control frame between fragments; empty frames; close with code and reason", () => {
  const events = parse([0x01, 0x03, 0x48, 0x65, 0x6c, 0x89, 0x00, 0x80, 0x02, 0x6c, 0x6f, 0x81, 0x00]).events;
  assertEquals(events, [["ping", ""], ["message", true, "Hello"], ["message", true, ""]]);
  assertEquals(parse([0x88, 0x04, 0x03, 0xe8, 0x6f, 0x6b]).events, [["close", 1000, "ok"]]);
  assertEquals(parse([0x88, 0x00]).events, [["close", 1005, ""]]);
});

Deno.test("RFC 6455 5.7: a masked client frame unmasks to its payload; the key changes per send", () => {
  const keys = new MaskKeys();
  const template = new MessageTemplate(OP_TEXT, new TextEncoder().encode("Hello"));
  const first = template.mask(keys).slice();
  const second = template.mask(keys).slice();
  for (const frame of [first, second]) {
    assertEquals([frame[0], frame[1]], [0x81, 0x85]);
    const key = frame.subarray(2, 6);
    assertEquals(Array.from(frame.subarray(6), (b, i) => b ^ key[i & 3]), HELLO);
  }
  assertEquals(first.subarray(2, 6).join() === second.subarray(2, 6).join(), false);
});

Deno.test("client frames: every length form and fragments unmask to the payload", () => {
  const keys = new MaskKeys();
  for (const size of [0, 1, 3, 125, 126, 127, 1000, 65535, 65536, 70001]) {
    for (const fragment of [0, 7, 500]) {
      const payload = Uint8Array.from({ length: size }, (_, i) => (i * 31) & 0xff);
      const bytes = new MessageTemplate(OP_BINARY, payload, fragment).mask(keys);
      const out: number[] = [];
      let at = 0;
      let frames = 0;
      while (at < bytes.length) {
        const b1 = bytes[at + 1] & 0x7f;
        let length = b1, header = 2;
        if (b1 === 126) [length, header] = [(bytes[at + 2] << 8) | bytes[at + 3], 4];
        if (b1 === 127) {
          [length, header] = [new DataView(bytes.buffer, bytes.byteOffset + at + 6).getUint32(0), 10];
        }
        assertEquals(bytes[at + 1] & 0x80, 0x80);
        assertEquals(bytes[at] & 0x0f, frames === 0 ? OP_BINARY : 0);
        const key = bytes.subarray(at + header, at + header + 4);
        for (let i = 0; i < length; i++) out.push(bytes[at + header + 4 + i] ^ key[i & 3]);
        at += header + 4 + length;
        frames++;
        assertEquals((bytes[at - length - header - 4] & 0x80) !== 0, at === bytes.length);
      }
      assertEquals(at, bytes.length);
      assertEquals(out.length, size);
      assertEquals(Uint8Array.from(out), payload, `size ${size} fragment ${fragment}`);
    }
  }
});

Deno.test("control frames: a pong and a close are masked, the close carries its code", () => {
  const keys = new MaskKeys();
  const pong = pongFrame(Uint8Array.from(HELLO), keys);
  assertEquals([pong[0], pong[1]], [0x8a, 0x85]);
  assertEquals(Array.from(pong.subarray(6), (b, i) => b ^ pong[2 + (i & 3)]), HELLO);
  const close = closeFrame(1000, keys);
  const key = close.subarray(2, 6);
  assertEquals(Array.from(close.subarray(6), (b, i) => b ^ key[i & 3]), [0x03, 0xe8]);
});

Deno.test("faults: what a server must not send is refused by kind", () => {
  const cases: Array<[string, number[], string]> = [
    ["reserved bit", [0xc1, 0x00], "protocol"],
    ["masked server frame", [0x81, 0x85, 1, 2, 3, 4, ...HELLO], "protocol"],
    ["reserved data opcode", [0x83, 0x00], "protocol"],
    ["reserved control opcode", [0x8b, 0x00], "protocol"],
    ["control frame over 125", [0x89, 0x7e, 0x00, 0x7e, ...new Array(126).fill(0)], "protocol"],
    ["fragmented control", [0x09, 0x00], "protocol"],
    ["continuation with no message", [0x80, 0x00], "protocol"],
    ["new message inside a fragmented one", [0x01, 0x01, 0x41, 0x81, 0x00], "protocol"],
    ["close of 1 byte", [0x88, 0x01, 0x03], "protocol"],
    ["close code 1005 on the wire", [0x88, 0x02, 0x03, 0xed], "protocol"],
    ["close code 999", [0x88, 0x02, 0x03, 0xe7], "protocol"],
    ["close code 5000", [0x88, 0x02, 0x13, 0x88], "protocol"],
    ["64-bit length top bit", [0x82, 0x7f, 0x80, 0, 0, 0, 0, 0, 0, 0], "protocol"],
    ["bad utf8", [0x81, 0x02, 0xc3, 0x28], "bad-utf8"],
    ["bad utf8 across fragments", [0x01, 0x01, 0xe2, 0x80, 0x02, 0x82, 0x28], "bad-utf8"],
    ["truncated utf8 at the end", [0x01, 0x01, 0xe2, 0x80, 0x01, 0x82], "bad-utf8"],
    ["close reason not utf8", [0x88, 0x03, 0x03, 0xe8, 0xff], "bad-utf8"],
  ];
  for (const [name, bytes, fault] of cases) assertEquals(parse(bytes).fault, fault, name);
  // The cap refuses at the header: a 2^40-byte claim never makes it allocate.
  assertEquals(parse([0x82, 0x7f, 0, 0, 1, 0, 0, 0, 0, 0]).fault, "too-big");
  assertEquals(
    parse([0x01, 0x7e, 0x00, 0x80, ...new Array(128).fill(0x41), 0x80, 0x01, 0x41], 128).fault,
    "too-big",
  );
});

Deno.test("frames per message are capped: endless empty continuations are a fragment flood, refused", () => {
  // 1 MiB cap: 1,024 frames a message. A text message's first frame, then empty continuations.
  const flood = (continuations: number, fin: boolean) => [
    0x01,
    0x01,
    0x41,
    ...new Array(continuations - 1).fill([0x00, 0x00]).flat(),
    fin ? 0x80 : 0x00,
    0x00,
  ];
  assertEquals(parse(flood(1_023, true)).events, [["message", true, "A"]]);
  const refused = parse(flood(1_024, false));
  assertEquals([refused.events, refused.fault], [[], "protocol"]);
  // Pings between fragments are frames of no message: answered, never counted against it.
  const pings = [0x01, 0x00, ...new Array(2_000).fill([0x89, 0x00]).flat(), 0x80, 0x00];
  assertEquals(parse(pings).fault, null);
  // A larger cap allows as many 1 KiB fragments as fill it.
  const parser = new FrameParser(collect().sink, 4 << 20);
  const many = Uint8Array.from([0x02, 0x00, ...new Array(4_000).fill([0x00, 0x00]).flat(), 0x80, 0x00]);
  assertEquals([parser.feed(many, 0, many.length), parser.fault], [true, null]);
});

Deno.test("UTF-8: valid across every split point, overlongs, surrogates and past U+10FFFF refused", () => {
  const valid = new TextEncoder().encode("aé€𝄞z");
  for (let cut = 0; cut <= valid.length; cut++) {
    const state = utf8Step(UTF8_ACCEPT, valid, 0, cut);
    assertEquals(utf8Step(state, valid, cut, valid.length), UTF8_ACCEPT);
  }
  for (
    const bad of [[0xc0, 0x80], [0xe0, 0x80, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xff]]
  ) {
    assertEquals(utf8Step(UTF8_ACCEPT, Uint8Array.from(bad), 0, bad.length), UTF8_REJECT, String(bad));
  }
});

Deno.test("RFC 6455 1.3: the accept of the sample key; handshake answers checked", () => {
  const key = "dGhlIHNhbXBsZSBub25jZQ==";
  assertEquals(acceptOf(key), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
  const request = new TextDecoder().decode(
    handshakeRequest(new URL("ws://h:8080/chat?x=1"), key, { protocols: ["chat"] }),
  );
  assertEquals(request.split("\r\n").slice(0, 2), ["GET /chat?x=1 HTTP/1.1", "Host: h:8080"]);
  const answer = (lines: string[]) => {
    const bytes = new TextEncoder().encode(lines.join("\r\n") + "\r\n\r\nrest");
    return readHandshake(bytes, bytes.length, key, ["chat"]);
  };
  const good = ["HTTP/1.1 101 Switching Protocols", "Upgrade: websocket", "Connection: Upgrade"];
  const accept = "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=";
  const ok = answer([...good, accept, "Sec-WebSocket-Protocol: chat"]);
  assertEquals(ok.kind === "ok" && ok.protocol, "chat");
  const fault = (lines: string[]) => {
    const r = answer(lines);
    return r.kind === "failed" ? [r.fault, r.status] : r.kind;
  };
  assertEquals(fault(["HTTP/1.1 200 OK", "Content-Length: 0"]), ["refused", 200]);
  assertEquals(fault([...good, "Sec-WebSocket-Accept: x"]), ["bad-accept", 101]);
  assertEquals(fault([good[0], good[2], accept]), ["handshake", 101]);
  assertEquals(fault([...good, accept, "Sec-WebSocket-Protocol: other"]), ["handshake", 101]);
  assertEquals(fault([...good, accept, "Sec-WebSocket-Extensions: permessage-deflate"]), ["handshake", 101]);
  const partial = new TextEncoder().encode("HTTP/1.1 101 Switching");
  assertEquals(readHandshake(partial, partial.length, key).kind, "more");
});

Deno.test("handshake template: each copy is the request built with a fresh 16-byte key of its own", () => {
  const url = new URL("ws://h:8080/chat?x=1");
  const options = { protocols: ["chat"], headers: [["Origin", "http://o"]] as const, deflate: true };
  const template = new HandshakeTemplate(url, options);
  const keys = new Set<string>();
  // Past one draw of random bytes (64 keys a draw).
  for (let i = 0; i < 200; i++) {
    const { request, key } = template.next();
    assertEquals(request, handshakeRequest(url, key, options));
    assertEquals(atob(key).length, 16);
    assertEquals(btoa(atob(key)), key);
    keys.add(key);
  }
  assertEquals(keys.size, 200);
});

Deno.test("RFC 6455 5.2: a length not in its shortest form is a protocol fault; the shortest forms pass", () => {
  assertEquals(parse([0x82, 0x7e, 0x00, 0x05, 1, 2, 3, 4, 5]).fault, "protocol");
  assertEquals(parse([0x82, 0x7e, 0x00, 0x7d, ...new Array(125).fill(0)]).fault, "protocol");
  assertEquals(
    parse([0x82, 0x7f, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...new Array(65535).fill(0)]).fault,
    "protocol",
  );
  assertEquals(parse([0x82, 0x7f, 0, 0, 0, 0, 0, 0, 0, 0x05, 1, 2, 3, 4, 5]).fault, "protocol");
  assertEquals(parse([0x82, 0x7e, 0x00, 0x7e, ...new Array(126).fill(0)]).events, [["message", false, 126]]);
});

Deno.test("RFC 6455 5.5.1: nothing after the server's close frame is read (no message, no ping answered)", () => {
  const { events, fault } = parse([0x88, 0x02, 0x03, 0xe8, 0x81, 0x02, 0x68, 0x69, 0x89, 0x00, 0xc1, 0x00]);
  assertEquals([events, fault], [[["close", 1000, ""]], null]);
  assertEquals(parse([0x88, 0x00, 0x81, 0x00]).events, [["close", 1005, ""]]);
});

Deno.test("RFC 6455 7.4 and the IANA registry: close codes on the wire", () => {
  const close = (code: number) => parse([0x88, 0x02, code >> 8, code & 0xff]);
  for (const code of [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 3999, 4000, 4999]) {
    assertEquals(close(code).events, [["close", code, ""]], String(code));
  }
  for (const code of [0, 999, 1004, 1005, 1006, 1015, 1016, 2000, 2999, 5000, 65535]) {
    assertEquals(close(code).fault, "protocol", String(code));
  }
});

Deno.test("UTF-8 cut across frames and across reads is valid; a code point cut and never finished is not", () => {
  const euro = [0xe2, 0x82, 0xac];
  // "€" cut into three fragments, a ping between two of them.
  const frames = [0x01, 0x01, euro[0], 0x89, 0x00, 0x00, 0x01, euro[1], 0x80, 0x01, euro[2]];
  assertEquals(parse(frames).events, [["ping", ""], ["message", true, "€"]]);
  assertEquals(parse([0x81, 0x04, 0xf0, 0x9f, 0x98, 0x80]).events, [["message", true, "😀"]]);
  assertEquals(parse([0x81, 0x03, 0xf0, 0x9f, 0x98]).fault, "bad-utf8");
  assertEquals(parse([0x81, 0x02, 0xc1, 0xbf]).fault, "bad-utf8");
  assertEquals(parse([0x81, 0x04, 0xf5, 0x80, 0x80, 0x80]).fault, "bad-utf8");
});

Deno.test("RFC 6455 4.1-4.2: fields read case-insensitively, as token lists, padded; the answer cut anywhere", () => {
  const key = "dGhlIHNhbXBsZSBub25jZQ==";
  const accept = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=";
  const read = (text: string, protocols: string[] = []) => {
    const bytes = new TextEncoder().encode(text);
    return readHandshake(bytes, bytes.length, key, protocols);
  };
  const head = (...fields: string[]) =>
    ["HTTP/1.1 101 Switching Protocols", ...fields].join("\r\n") + "\r\n\r\n";
  const kind = (text: string, protocols: string[] = []) => {
    const r = read(text, protocols);
    return r.kind === "failed" ? r.fault : r.kind;
  };
  const good = [
    "upgrade: WebSocket",
    "CONNECTION: keep-alive, Upgrade",
    `sec-websocket-accept:   ${accept}  `,
  ];
  assertEquals(kind(head(...good)), "ok");
  assertEquals(kind(head(...good, `Sec-WebSocket-Accept: ${accept}`)), "bad-accept");
  assertEquals(kind(head(...good, "Sec-WebSocket-Protocol: chat"), []), "handshake");
  assertEquals(
    kind(head(...good, "Sec-WebSocket-Protocol: chat", "Sec-WebSocket-Protocol: chat"), ["chat"]),
    "handshake",
  );
  assertEquals(
    kind(head(...good, "Sec-WebSocket-Protocol: chat, superchat"), ["chat", "superchat"]),
    "handshake",
  );
  assertEquals(kind(head(...good), ["chat"]), "ok");
  assertEquals(kind(head(...good, "sec-websocket-extensions: x-custom")), "handshake");
  assertEquals(kind(head("Upgrade: h2c", good[1], good[2])), "handshake");
  assertEquals(kind(head(good[0], "Connection: keep-alive", good[2])), "handshake");
  // Cut byte by byte: `more` until the head is whole; the frame after it is left for the parser.
  const whole = Uint8Array.from([...new TextEncoder().encode(head(...good)), 0x81, 0x00]);
  for (let end = 0; end < whole.length - 2; end++) {
    assertEquals(readHandshake(whole, end, key).kind, "more");
    // Read on from the last read's end, as the client does: the CRLFCRLF cut across reads is still found.
    assertEquals(
      readHandshake(whole, end + 1, key, [], end).kind,
      end + 1 < whole.length - 2 ? "more" : "ok",
    );
  }
  const done = readHandshake(whole, whole.length, key);
  assertEquals(done.kind === "ok" && done.headBytes, whole.length - 2);
  // An endless head is refused once past the bound, never read on; so is a long one read whole at once.
  const endless = new TextEncoder().encode("HTTP/1.1 101 OK\r\n" + "X: y\r\n".repeat(3000));
  assertEquals(kind(new TextDecoder().decode(endless)), "handshake");
  assertEquals(kind(head(...good, ...Array.from({ length: 2500 }, (_, i) => `X${i}: y`))), "handshake");
  assertEquals(kind(head(...good, ...new Array(100).fill("X: y"))), "ok");
});

Deno.test("RFC 6455 4.1: the answer's bytes read as Latin-1 text would be: status forms, padding, line breaks", () => {
  const key = "dGhlIHNhbXBsZSBub25jZQ==";
  const fields = [
    "Upgrade: websocket",
    "Connection: Upgrade",
    "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=",
  ];
  const kind = (status: string, ...lines: string[]) => {
    const bytes = Uint8Array.from(
      [...`${[status, ...lines].join("\r\n")}\r\n\r\n`].map((c) => c.charCodeAt(0)),
    );
    const r = readHandshake(bytes, bytes.length, key);
    return r.kind === "failed" ? `${r.fault} ${r.status}` : r.kind;
  };
  assertEquals(kind("HTTP/1.1 101", ...fields), "ok");
  assertEquals(kind("HTTP/1.0 101 Switching Protocols", ...fields), "ok");
  assertEquals(kind("HTTP/1.2 101 Switching Protocols", ...fields), "handshake 0");
  assertEquals(kind("HTTP/1.1 1010 Switching Protocols", ...fields), "handshake 0");
  // A no-break space (0xA0) and a tab pad a value as they would a decoded string's trim.
  assertEquals(kind("HTTP/1.1 101 OK", "Upgrade:\xa0\twebsocket\xa0", ...fields.slice(1)), "ok");
  // A colon only on the next line does not make the line before it a field.
  assertEquals(kind("HTTP/1.1 101 OK", "Upgrade websocket", ...fields), "handshake 101");
  assertEquals(kind("HTTP/1.1 101 OK", ":websocket", ...fields), "handshake 101");
  // A token list with empty items and a bare LF inside a value.
  assertEquals(kind("HTTP/1.1 101 OK", "Upgrade: ,, websocket ,", ...fields.slice(1)), "ok");
  assertEquals(kind("HTTP/1.1 101 OK", "Upgrade: web\nsocket", ...fields.slice(1)), "handshake 101");
});
