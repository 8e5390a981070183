/**
 * The inspector session's WebSocket client against raw WebSocket servers written here (Deno.listen on
 * 127.0.0.1, frames by hand): an answer in fragments with a ping between them is read whole and the ping
 * answered; a frame announcing more than the message cap ends the connection at once, failing the call
 * with the cap; an answer without the right `Sec-WebSocket-Accept` is refused.
 */
import { deepStrictEqual as assertEquals, rejects } from "node:assert/strict";
import { InspectorSession } from "./inspector.ts";
import { eachRequestHead } from "../tests/fixtures/request_heads.ts";

const encoder = new TextEncoder();

/** A server frame (unmasked): FIN as given, `opcode`, `length` bytes announced in the shortest form. */
function frameHead(fin: boolean, opcode: number, length: number): Uint8Array {
  const head = new Uint8Array(length < 126 ? 2 : length < 65536 ? 4 : 10);
  head[0] = (fin ? 0x80 : 0) | opcode;
  head[1] = length < 126 ? length : length < 65536 ? 126 : 127;
  if (head[1] === 126) new DataView(head.buffer).setUint16(2, length);
  if (head[1] === 127) new DataView(head.buffer).setBigUint64(2, BigInt(length));
  return head;
}

const frame = (fin: boolean, opcode: number, text: string) => {
  const payload = encoder.encode(text);
  return new Uint8Array([...frameHead(fin, opcode, payload.length), ...payload]);
};

/** The first client frame's opcode and payload (unmasked) in `bytes`. */
function clientFrame(bytes: Uint8Array): { opcode: number; text: string } {
  const length = bytes[1] & 0x7f; // the tests' client frames are short
  const mask = bytes.subarray(2, 6);
  const payload = bytes.slice(6, 6 + length).map((b, i) => b ^ mask[i & 3]);
  return { opcode: bytes[0] & 0x0f, text: new TextDecoder().decode(payload) };
}

/**
 * A server that completes the upgrade (with `accept` or the right key) and then runs `then` on the socket.
 */
function server(then: (conn: Deno.Conn) => Promise<void>, accept?: string) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const served = (async () => {
    const conn = await listener.accept();
    try {
      await eachRequestHead(conn, async (head) => {
        const key = /sec-websocket-key: *(\S+)/i.exec(head)![1];
        const digest = await crypto.subtle.digest(
          "SHA-1",
          encoder.encode(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"),
        );
        const right = btoa(String.fromCharCode(...new Uint8Array(digest)));
        await conn.write(encoder.encode(
          "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
            `Sec-WebSocket-Accept: ${accept ?? right}\r\n\r\n`,
        ));
        return false;
      });
      await then(conn);
    } finally {
      conn.close();
    }
  })();
  const url = `ws://127.0.0.1:${(listener.addr as Deno.NetAddr).port}/inspector-id`;
  return { url, done: () => (listener.close(), served.catch(() => {})) };
}

Deno.test("inspector session: a fragmented message with a ping between its parts is read whole; the ping answered", async () => {
  let pong: { opcode: number; text: string } | null = null;
  let call: { opcode: number; text: string } | null = null;
  const s = server(async (conn) => {
    const buf = new Uint8Array(256);
    call = clientFrame(buf.subarray(0, await conn.read(buf) ?? 0));
    await conn.write(frame(false, 0x1, '{"id":1,'));
    await conn.write(frame(true, 0x9, "are you there"));
    pong = clientFrame(buf.subarray(0, await conn.read(buf) ?? 0));
    await conn.write(frame(true, 0x0, '"result":{}}'));
    await conn.read(buf); // until the client closes
  });
  try {
    const session = await InspectorSession.connect(s.url, 5_000, 1024);
    const result = await session.call("Profiler.stop");
    session.close();
    assertEquals([call, result, pong], [
      { opcode: 0x1, text: '{"id":1,"method":"Profiler.stop","params":{}}' },
      {},
      { opcode: 0xa, text: "are you there" },
    ]);
  } finally {
    await s.done();
  }
});

Deno.test("inspector session: a frame announcing more than the cap ends the connection at once, naming it", async () => {
  const s = server(async (conn) => {
    await conn.read(new Uint8Array(256)); // the call
    await conn.write(frameHead(true, 0x1, 300 * 1024 * 1024));
    await conn.read(new Uint8Array(16)); // the payload never comes; the client closes
  });
  try {
    const session = await InspectorSession.connect(s.url, 5_000, 256 * 1024 * 1024);
    await rejects(
      session.call("Profiler.stop"),
      /larger than the 256 MiB loadlab reads of one inspector message/,
    );
    await rejects(session.call("Profiler.stop"), /the inspector connection is closed/);
  } finally {
    await s.done();
  }
});

Deno.test("inspector session: an upgrade answer with the wrong Sec-WebSocket-Accept is refused", async () => {
  const s = server(() => Promise.resolve(), "d3Jvbmc=");
  try {
    await rejects(InspectorSession.connect(s.url, 5_000, 1024), /did not accept the WebSocket upgrade/);
  } finally {
    await s.done();
  }
});
