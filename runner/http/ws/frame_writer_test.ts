/**
 * The connection's writer against a real loopback peer that never reads: once the kernel's buffers are
 * full, a ping flood leaves one pong waiting (the newest), not one per ping, so a server that pings and
 * never reads cannot grow the generator's memory; a message being written says so until it is whole.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { FrameWriter } from "./frame_writer.ts";
import { PromiseInline } from "../transport/promise_inline.ts";

Deno.test("frame writer: a ping flood to a peer that never reads leaves one pong waiting", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const accepted = listener.accept();
  const client = await Deno.connect({ hostname: "127.0.0.1", port: listener.addr.port });
  const server = await accepted;
  let failed = 0;
  const writer = new FrameWriter({ writeFailed: () => failed++ });
  try {
    writer.reset(new PromiseInline(client));
    // More than loopback's socket buffers take: the write stays in progress while the peer reads nothing.
    writer.sendMessage(new Uint8Array(64 * 1024 * 1024));
    for (let i = 0; i < 10_000; i++) writer.sendPong(Uint8Array.of(0x8a, 0x80, 0, 0, 0, 0));
    writer.send(Uint8Array.of(0x88, 0x80, 0, 0, 0, 0));
    assertEquals([writer.writingMessage, writer.waitingFrames, failed], [true, 2, 0]);
  } finally {
    writer.reset(null);
    client.close();
    server.close();
    listener.close();
  }
});
