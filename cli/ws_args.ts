/**
 * @module
 * The WebSocket flags of `loadlab attack` (a ws:// or wss:// URL).
 */
import type { FlagSpec } from "./argv.ts";
import type { FlagValues } from "./flag_values.ts";
import { UsageError } from "./usage_error.ts";
import type { AttackConfigInput } from "../runner/config.ts";

export const WS_FLAGS: FlagSpec[] = [
  { long: "ws-message", takesValue: true, repeatable: true, example: '\'{"op":"ping"}\'' },
  { long: "ws-binary", takesValue: false },
  { long: "ws-fragment", takesValue: true, example: "1024" },
  { long: "ws-match", takesValue: true, example: "json:type=pong" },
  { long: "ws-protocol", takesValue: true, repeatable: true, example: "chat" },
  { long: "ws-per-connection", takesValue: true, example: "10" },
  { long: "ws-ping", takesValue: true, example: "1s" },
  { long: "ws-max-message", takesValue: true, example: "1048576" },
  { long: "ws-max-buffered", takesValue: true, example: "268435456" },
  { long: "ws-deflate", takesValue: false },
];

/** Config field path under `ws` -> its flag, for validation messages. */
export const WS_CONFIG_PATH_FLAGS: Record<string, string> = {
  ws: "--ws-message",
  "ws.messages": "--ws-message",
  "ws.fragmentBytes": "--ws-fragment",
  "ws.match": "--ws-match",
  "ws.protocols": "--ws-protocol",
  "ws.messagesPerConnection": "--ws-per-connection",
  "ws.pingIntervalMs": "--ws-ping",
  "ws.maxMessageBytes": "--ws-max-message",
  "ws.maxBufferedBytes": "--ws-max-buffered",
  "ws.deflate": "--ws-deflate",
};

/** HTTP-only flags, refused with a ws:// URL. */
const HTTP_ONLY = [
  "mix",
  "method",
  "body",
  "body-file",
  "content-type",
  "pipelining",
  "h2",
  "protocol",
  "streams",
];

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
  const http = HTTP_ONLY.find((f) => flags.has(f));
  if (http) {
    throw new UsageError(
      `--${http} is for HTTP; a ws:// run sends --ws-message (repeatable), e.g. --ws-message '{"op":"hi"}'`,
    );
  }
  const messages = flags.all("ws-message");
  const headers = Object.fromEntries(flags.all("header").map(headerOf));
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

function headerOf(line: string): [string, string] {
  const colon = line.indexOf(":");
  if (colon <= 0) throw new UsageError(`-H ${JSON.stringify(line)}: expected "Name: value"`);
  return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
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
