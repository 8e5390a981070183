/**
 * @module
 * What every WebSocket connection of a worker shares beyond `ConnectionShared`, built once per worker.
 */
import { MaskKeys, MessageTemplate } from "../../../ws/frame_encoder.ts";
import { HandshakeTemplate } from "../../../ws/handshake.ts";
import { OP_BINARY, OP_TEXT } from "../../../ws/opcodes.ts";
import { BufferBudget } from "../../../ws/buffer_budget.ts";
import { WsStats } from "./stats.ts";
import { SleepQueue } from "../../../system/sleep_queue.ts";
import type { WsConfig } from "./config.ts";

/** The read buffers' size; a message cut across reads is gathered by the frame parser. */
export const WS_READ_BUFFER_BYTES = 32 * 1024;

export type WsRun = Readonly<ReturnType<typeof wsRunOf>>;

export function wsRunOf(url: URL, config: WsConfig) {
  const encoder = new TextEncoder();
  const payloads = config.messages.map((m) =>
    config.binary ? Uint8Array.from(atob(m), (c) => c.charCodeAt(0)) : encoder.encode(m)
  );
  const opcode = config.binary ? OP_BINARY : OP_TEXT;
  return {
    ...config,
    messages: payloads.map((p) => new MessageTemplate(opcode, p, config.fragmentBytes)),
    /** With permessage-deflate offered, the same messages compressed, for connections that agreed. */
    deflatedMessages: config.deflate
      ? payloads.map((p) => new MessageTemplate(opcode, p, config.fragmentBytes, true))
      : [],
    keys: new MaskKeys(),
    stats: new WsStats(),
    /** What the worker's connections may hold together in messages in progress (ws/buffer_budget.ts). */
    budget: new BufferBudget(config.maxBufferedBytes),
    /** The inline transports' shared read buffer: filled right before each callback parses it. */
    readBuf: new Uint8Array(WS_READ_BUFFER_BYTES),
    /** The idle waits of the worker's connections (hold, think times), on one timer. */
    pauses: new SleepQueue(),
    /** The Upgrade request, built once; each handshake takes a copy with its own key. */
    upgrade: new HandshakeTemplate(url, {
      protocols: config.protocols,
      headers: Object.entries(config.headers),
      deflate: config.deflate,
    }),
    handshakeBuffers: [] as Uint8Array[],
  };
}

/** ws: and wss: as the http: and https: their transport and TLS options are chosen by. */
export function httpFormOf(url: URL): URL {
  if (url.protocol !== "ws:" && url.protocol !== "wss:") return url;
  const http = new URL(url);
  http.protocol = url.protocol === "wss:" ? "https:" : "http:";
  return http;
}
