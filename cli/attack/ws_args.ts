/**
 * @module
 * The WebSocket flags of `loadlab attack` (a ws:// or wss:// URL).
 */
import { flag, type FlagSpec } from "../argv.ts";
import type { FlagValues } from "../flag_values.ts";
import { UsageError } from "../usage_error.ts";
import type { AttackConfigInput } from "../../runner/config.ts";
import { HTTP_ONLY } from "./grpc_args.ts";
import { parseHeader } from "./request_args.ts";

export const WS_FLAGS: FlagSpec[] = [
  flag(
    "--ws-message TEXT",
    { repeatable: true, example: '\'{"op":"ping"}\'', config: ["ws", "ws.messages"] },
    [
      "a message to send (repeatable: sent in turn)           [hello]",
    ],
  ),
  flag("--ws-binary", {}, ["messages are base64 of binary payloads"]),
  flag("--ws-fragment N", { example: "1024", config: ["ws.fragmentBytes"] }, [
    "cut each message into frames of at most N bytes   [one frame]",
  ]),
  flag("--ws-match RULE", { example: "json:type=pong", config: ["ws.match"] }, [
    "which server message answers a send: echo (the next one),",
    "nth:N, or json:FIELD=VALUE                              [echo]",
  ]),
  flag("--ws-protocol P", { repeatable: true, example: "chat", config: ["ws.protocols"] }, [
    "a subprotocol to offer (repeatable)",
  ]),
  flag("--ws-per-connection N", { example: "10", config: ["ws.messagesPerConnection"] }, [
    "connection storm: each connection sends N messages, then",
    "closes (1000); with -R: connections opened at that rate",
  ]),
  flag("--ws-ping D", { example: "1s", config: ["ws.pingIntervalMs"] }, [
    "hold: no messages; each connection pings after D idle and",
    "times the pong",
  ]),
  flag("--ws-max-message N", { example: "1048576", config: ["ws.maxMessageBytes"] }, [
    "cap of a server message; a bigger one is ws-too-big  [1048576]",
  ]),
  flag("--ws-max-buffered N", { example: "268435456", config: ["ws.maxBufferedBytes"] }, [
    "what a worker's connections may hold together in messages",
    "in progress; past it one is ws-too-big             [268435456]",
  ]),
  flag("--ws-deflate", { config: ["ws.deflate"] }, [
    "offer permessage-deflate; a server that agrees gets and",
    "may send compressed messages (the cap: inflated size)",
  ]),
];

/** HTTP-only flags, refused with a ws:// URL: gRPC's, and the request's own. */
const WS_REFUSED = [...HTTP_ONLY, "method", "body", "body-file", "streams"];

/** The `ws` config of the flags for `url`, or undefined for an http(s) URL (which refuses ws flags). */
export function wsArgs(flags: FlagValues, url: URL): AttackConfigInput["ws"] {
  const isWs = url.protocol === "ws:" || url.protocol === "wss:";
  if (!isWs) {
    const given = WS_FLAGS.find((f) => flags.has(f.long));
    if (given) {
      throw new UsageError(`--${given.long} needs a ws:// or wss:// URL, e.g. ws://127.0.0.1:8080/ws/echo`);
    }
    return undefined;
  }
  const http = WS_REFUSED.find((f) => flags.has(f));
  if (http) {
    throw new UsageError(
      `--${http} is for HTTP; a ws:// run sends --ws-message (repeatable), e.g. --ws-message '{"op":"hi"}'`,
    );
  }
  const messages = flags.all("ws-message");
  const headers = Object.fromEntries(flags.all("header").map(parseHeader));
  return {
    ...(messages.length > 0 ? { messages } : {}),
    ...(flags.has("ws-binary") ? { binary: true } : {}),
    fragmentBytes: flags.positiveInt("ws-fragment"),
    match: matchOf(flags.text("ws-match")),
    protocols: flags.all("ws-protocol"),
    headers,
    messagesPerConnection: flags.positiveInt("ws-per-connection"),
    pingIntervalMs: flags.positiveDurationMs("ws-ping"),
    maxMessageBytes: flags.positiveInt("ws-max-message"),
    maxBufferedBytes: flags.positiveInt("ws-max-buffered"),
    ...(flags.has("ws-deflate") ? { deflate: true } : {}),
  };
}

/** `echo`, `nth:N`, or `json:FIELD=VALUE` (a number, true or false read as such, else text). */
function matchOf(text: string | undefined): NonNullable<AttackConfigInput["ws"]>["match"] {
  if (text === undefined || text === "echo") return undefined;
  const nth = /^nth:(\d+)$/.exec(text);
  if (nth) return { kind: "nth", n: Number(nth[1]) };
  const json = /^json:([^=]+)=(.*)$/.exec(text);
  if (json) {
    const raw = json[2];
    const value = raw === "true"
      ? true
      : raw === "false"
      ? false
      : raw !== "" && !isNaN(Number(raw))
      ? Number(raw)
      : raw;
    return { kind: "json", field: json[1], equals: value };
  }
  throw new UsageError(
    `--ws-match ${
      JSON.stringify(text)
    }: expected echo, nth:N (the N-th message after a send) or json:FIELD=VALUE`,
  );
}
