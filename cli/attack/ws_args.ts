/**
 * @module
 * The WebSocket flags of `loadlab attack` (a ws:// or wss:// URL) read into its `ws` config.
 */
import { optionValues, WS_FLAGS } from "./flags.ts";
import { WS_OPTIONS } from "../../runner/http/ws/config.ts";
import type { FlagValues } from "../flag_values.ts";
import { UsageError } from "../usage_error.ts";
import type { AttackConfigInput } from "../../runner/config.ts";
import { HTTP_ONLY } from "./grpc_args.ts";
import { parseHeader } from "./request_args.ts";

/** HTTP-only flags, refused with a ws:// URL: gRPC's, and the request's own. */
const WS_REFUSED = [...HTTP_ONLY, "method", "body", "body-file", "streams"];

/** The `ws` config of the flags for `url`, or undefined for an http(s) URL (which refuses ws flags). */
export function wsArgs(flags: FlagValues, url: URL): AttackConfigInput["ws"] {
  const isWs = url.protocol === "ws:" || url.protocol === "wss:";
  if (!isWs) {
    const given = Object.values(WS_FLAGS).find((f) => flags.has(f.long));
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
  const values = optionValues(flags, WS_OPTIONS, WS_FLAGS);
  const headers = Object.fromEntries(flags.all("header").map(parseHeader));
  return { ...values, match: matchOf(values.match as string | undefined), headers };
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
