/**
 * @module
 * The `ws` part of a run's config: messages and how they are sent, what answers a send, handshake extras,
 * the message cap and buffer budget, and what each connection does (keep sending, storm, hold).
 */
import { z } from "zod";
import { DEFAULT_MAX_MESSAGE_BYTES } from "../../../ws/opcodes.ts";
import { DEFAULT_MAX_BUFFERED_BYTES } from "../../../ws/buffer_budget.ts";
import { fieldsOf, option } from "../../option.ts";
import { customIssue } from "../../../validation/mod.ts";

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
const MAX_STORM_THINK_MS = 600_000;

/** The fields of a run's `ws` config, each declared once with its flag (`--ws-*`) where it has one. */
export const WS_OPTIONS = {
  messages: option(
    { flag: "--ws-message TEXT", repeatable: true, example: '\'{"op":"ping"}\'' },
    z.array(z.string()).min(1, "ws.messages: give at least one message").default(["hello"]),
    "a message to send (repeatable: sent in turn)",
  ),
  binary: option(
    { flag: "--ws-binary" },
    z.boolean().default(false),
    "messages are base64 of binary payloads",
  ),
  fragmentBytes: option(
    { flag: "--ws-fragment N", example: "1024" },
    z.number().int().min(0).default(0),
    "cut each message into frames of at most N bytes",
    "(0: one frame)",
  ),
  match: option(
    { kind: "word", flag: "--ws-match RULE", example: "json:type=pong" },
    matchRuleSchema.default({ kind: "echo" }),
    "which server message answers a send: echo",
    "(the next one), nth:N, or json:FIELD=VALUE",
  ),
  protocols: option(
    { flag: "--ws-protocol P", repeatable: true, example: "chat" },
    z.array(z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, "a subprotocol is a token")).default([]),
    "a subprotocol to offer (repeatable)",
  ),
  headers: option({}, z.record(z.string(), z.string()).default({})),
  /** Permessage-deflate (RFC 7692, no context takeover); off by default as it costs CPU per message. */
  deflate: option(
    { flag: "--ws-deflate" },
    z.boolean().default(false),
    "offer permessage-deflate; a server that agrees gets and",
    "may send compressed messages (the cap: inflated size)",
  ),
  maxMessageBytes: option(
    { flag: "--ws-max-message N", example: "1048576" },
    z.number().int().min(125).max(64 * 1024 * 1024).default(DEFAULT_MAX_MESSAGE_BYTES),
    "cap of a server message; a bigger one is ws-too-big",
  ),
  maxBufferedBytes: option(
    { flag: "--ws-max-buffered N", example: "268435456" },
    z.number().int().max(16 * 1024 * 1024 * 1024).default(DEFAULT_MAX_BUFFERED_BYTES),
    "what a worker's connections may hold",
    "together in messages in progress; past it one is ws-too-big",
  ),
  messagesPerConnection: option(
    { flag: "--ws-per-connection N", example: "10" },
    z.number().int().min(0).default(0),
    "connection storm: each connection sends N messages,",
    "then closes (1000; 0: keeps it open); with -R: connections",
    "opened at that rate",
  ),
  /** A storm's pause after each message (index i: after the i-th), ms (Artillery's think). */
  thinkAfterMs: option({}, z.array(z.number().int().min(0).max(MAX_STORM_THINK_MS)).default([])),
  pingIntervalMs: option(
    { kind: "ms", flag: "--ws-ping D", example: "1s" },
    z.number().int().min(0).max(600_000).default(0),
    "hold: no messages; each connection pings after D idle and",
    "times the pong (0s: no pings)",
  ),
};

export const wsConfigSchema = z.object({
  /** Experiment files: the WebSocket path on the target; an attack's URL carries its own. */
  path: z.string().startsWith("/", "ws.path starts with /, e.g. /ws/echo").optional(),
  ...fieldsOf(WS_OPTIONS),
}).refine((ws) => ws.maxBufferedBytes >= 2 * ws.maxMessageBytes, {
  path: ["maxBufferedBytes"],
  message: "ws.maxBufferedBytes must hold at least two messages at the cap (2 x ws.maxMessageBytes): " +
    "raise it or lower ws.maxMessageBytes",
}).superRefine((ws, ctx) => {
  // A binary message is base64 of its bytes: one that is not failed the load worker as it started.
  if (!ws.binary) return;
  ws.messages.forEach((m, i) => {
    if (BASE64.test(m)) return;
    customIssue(
      ctx,
      ["messages", i],
      "a binary message is the base64 of its bytes (A-Z a-z 0-9 + /, = padding), e.g. AAEC",
    );
  });
});

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;

export type WsConfig = z.infer<typeof wsConfigSchema>;

export const WS_DEFAULTS: WsConfig = wsConfigSchema.parse({});
