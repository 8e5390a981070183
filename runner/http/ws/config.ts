/**
 * @module
 * The `ws` part of a run's config: messages and how they are sent, what answers a send, handshake extras,
 * the message cap and buffer budget, and what each connection does (keep sending, storm, hold).
 */
import { z } from "zod";
import { DEFAULT_MAX_MESSAGE_BYTES } from "../../../ws/opcodes.ts";
import { DEFAULT_MAX_BUFFERED_BYTES } from "../../../ws/buffer_budget.ts";

const matchRuleSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("echo") }),
  z.object({ kind: z.literal("nth"), n: z.number().int().min(1, "nth: n must be >= 1") }),
  z.object({
    kind: z.literal("json"),
    field: z.string().min(1, "json: name the field"),
    equals: z.union([z.string(), z.number(), z.boolean()]),
  }),
]);

/** Longest pause a storm makes between two messages: 10 minutes (a longer wait is a hold's or a flow's). */
export const MAX_STORM_THINK_MS = 600_000;

export const wsConfigSchema = z.object({
  /** Experiment files: the WebSocket path on the target; an attack's URL carries its own. */
  path: z.string().startsWith("/", "ws.path starts with /, e.g. /ws/echo").optional(),
  /** Messages sent in turn (text; with `binary`, each is base64 of the bytes). */
  messages: z.array(z.string()).min(1, "ws.messages: give at least one message").default(["hello"]),
  binary: z.boolean().default(false),
  /** Cut each message into frames of at most this many payload bytes (0: one frame). */
  fragmentBytes: z.number().int().min(0).default(0),
  /** Which server message answers a send: echo (the next one), nth, or a JSON field's value. */
  match: matchRuleSchema.default({ kind: "echo" }),
  /** Subprotocols offered (Sec-WebSocket-Protocol); the server may pick one of them or none. */
  protocols: z.array(z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, "a subprotocol is a token")).default(
    [],
  ),
  headers: z.record(z.string(), z.string()).default({}),
  /** Offer permessage-deflate (RFC 7692, no context takeover); off by default as it costs CPU per message. */
  deflate: z.boolean().default(false),
  /** Cap of one server message (all its fragments); a bigger one is `ws-too-big`, refused at its header. */
  maxMessageBytes: z.number().int().min(125).max(64 * 1024 * 1024).default(DEFAULT_MAX_MESSAGE_BYTES),
  /** What a worker's connections may hold in messages in progress; one that does not fit is `ws-too-big`. */
  maxBufferedBytes: z.number().int().max(16 * 1024 * 1024 * 1024).default(DEFAULT_MAX_BUFFERED_BYTES),
  /** Connection storm: each connection sends this many messages, then closes (1000). 0: keep it open. */
  messagesPerConnection: z.number().int().min(0).default(0),
  /** A storm's pause after each message (index i: after the i-th), ms (Artillery's think). */
  thinkAfterMs: z.array(z.number().int().min(0).max(MAX_STORM_THINK_MS)).default([]),
  /** Hold: no messages; each connection pings after this idle wait and times the pong. 0: off. */
  pingIntervalMs: z.number().int().min(0).max(600_000).default(0),
}).refine((ws) => ws.maxBufferedBytes >= 2 * ws.maxMessageBytes, {
  path: ["maxBufferedBytes"],
  message: "ws.maxBufferedBytes must hold at least two messages at the cap (2 x ws.maxMessageBytes): " +
    "raise it or lower ws.maxMessageBytes",
}).superRefine((ws, ctx) => {
  // A binary message is base64 of its bytes: one that is not failed the load worker as it started.
  if (!ws.binary) return;
  ws.messages.forEach((m, i) => {
    if (BASE64.test(m)) return;
    ctx.addIssue({
      code: "custom",
      path: ["messages", i],
      message: "a binary message is the base64 of its bytes (A-Z a-z 0-9 + /, = padding), e.g. AAEC",
    });
  });
});

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;

export type WsConfig = z.infer<typeof wsConfigSchema>;

/** The config of a ws:// run that gave none: one text message, echoed. */
export const WS_DEFAULTS: WsConfig = wsConfigSchema.parse({});
