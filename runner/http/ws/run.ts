/**
 * @module
 * What every WebSocket connection of a worker shares beyond `ConnectionShared`: messages encoded once, the
 * match rule, handshake extras, caps and budget, the mode, mask keys, `WsStats`, the one shared read buffer
 * and the one idle timer. Built once per worker (`wsRunOf`).
 */
import { MaskKeys, MessageTemplate } from "../../../ws/frame_encoder.ts";
import { HandshakeTemplate } from "../../../ws/handshake.ts";
import { OP_BINARY, OP_TEXT } from "../../../ws/opcodes.ts";
import { BufferBudget } from "../../../ws/buffer_budget.ts";
import type { MatchRule } from "./answer_match.ts";
import { WsStats } from "./stats.ts";
import { PauseQueue } from "./pause_queue.ts";
import type { WsConfig } from "./config.ts";

/** The read buffers' size; a message cut across reads is gathered by the frame parser. */
export const WS_READ_BUFFER_BYTES = 32 * 1024;

export interface WsRun {
  readonly url: URL;
  readonly messages: readonly MessageTemplate[];
  /** Whether permessage-deflate is offered; the same messages compressed, for connections that agreed. */
  readonly deflate: boolean;
  readonly deflatedMessages: readonly MessageTemplate[];
  readonly match: MatchRule;
  readonly protocols: readonly string[];
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly maxMessageBytes: number;
  readonly messagesPerConnection: number;
  readonly pingIntervalMs: number;
  /** A storm's pause after each message before the next (index i: after message i), ms. */
  readonly thinkAfterMs: readonly number[];
  readonly keys: MaskKeys;
  readonly stats: WsStats;
  /** What the worker's connections may hold together in messages in progress (ws/buffer_budget.ts). */
  readonly budget: BufferBudget;
  /** The inline transports' shared read buffer: filled right before each callback parses it. */
  readonly readBuf: Uint8Array;
  /** The idle waits of the worker's connections (hold, think times), on one timer (pause_queue.ts). */
  readonly pauses: PauseQueue;
  /** The Upgrade request, built once; each handshake takes a copy with its own key. */
  readonly upgrade: HandshakeTemplate;
  readonly handshakeBuffers: Uint8Array[];
}

export function wsRunOf(url: URL, config: WsConfig): WsRun {
  const encoder = new TextEncoder();
  const payloads = config.messages.map((m) =>
    config.binary ? Uint8Array.from(atob(m), (c) => c.charCodeAt(0)) : encoder.encode(m)
  );
  const opcode = config.binary ? OP_BINARY : OP_TEXT;
  return {
    url,
    messages: payloads.map((p) => new MessageTemplate(opcode, p, config.fragmentBytes)),
    deflate: config.deflate,
    deflatedMessages: config.deflate
      ? payloads.map((p) => new MessageTemplate(opcode, p, config.fragmentBytes, true))
      : [],
    match: config.match,
    protocols: config.protocols,
    headers: Object.entries(config.headers),
    maxMessageBytes: config.maxMessageBytes,
    messagesPerConnection: config.messagesPerConnection,
    pingIntervalMs: config.pingIntervalMs,
    thinkAfterMs: config.thinkAfterMs,
    keys: new MaskKeys(),
    stats: new WsStats(),
    budget: new BufferBudget(config.maxBufferedBytes),
    readBuf: new Uint8Array(WS_READ_BUFFER_BYTES),
    pauses: new PauseQueue(),
    upgrade: new HandshakeTemplate(url, {
      protocols: config.protocols,
      headers: Object.entries(config.headers),
      deflate: config.deflate,
    }),
    handshakeBuffers: [],
  };
}

/** ws: and wss: as the http: and https: their transport and TLS options are chosen by. */
export function httpFormOf(url: URL): URL {
  if (url.protocol !== "ws:" && url.protocol !== "wss:") return url;
  const http = new URL(url);
  http.protocol = url.protocol === "wss:" ? "https:" : "http:";
  return http;
}
