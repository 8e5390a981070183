/**
 * @module
 * The gRPC flags of `loadlab attack` (a grpc:// or grpcs:// URL), as ghz names them: `--call
 * pkg.Service/Method` (ghz's `pkg.Service.Method` too), the schema by `--proto FILE` with `-i DIR` import
 * paths, `--protoset FILE` or `--reflect`, the message as `-b JSON` (or `--body-file`), `-H "name: value"`
 * as metadata (a `-bin` name's value sent base64-encoded), `--max-receive` and `--max-send` the caps of a
 * message each way,
 * `--compress gzip` the messages compressed, `--data-file` rows filling the message's and metadata's
 * placeholders (cli/data_file_args.ts).
 * The URL becomes its http: or https: origin spoken over h2c or h2; flags that only mean something for
 * HTTP are a usage error naming the fix, as gRPC flags on an http URL are. The schema itself is read
 * after parsing (`withGrpcCalls`), as reflection asks the server.
 */
import type { FlagSpec } from "./argv.ts";
import type { FlagValues } from "./flag_values.ts";
import { UsageError } from "./usage_error.ts";
import type { AttackConfig } from "../runner/config.ts";
import { RESERVED_METADATA } from "../runner/http/grpc/call.ts";
import { metadataValueProblem } from "../runner/grpc_step_spec.ts";
import { grpcRequestMix, type GrpcSource, schemaOf } from "../scenarios/grpc/calls.ts";
import { GrpcSchemaError } from "../runner/http/grpc/schema.ts";
import { GrpcMessageError } from "../runner/http/grpc/message.ts";
import type { DataSpec } from "../runner/session_schema.ts";
import { checkPlaceholderNames } from "./data_file_args.ts";
import { readBodyFile } from "./request_args.ts";

export const GRPC_FLAGS: FlagSpec[] = [
  { long: "call", takesValue: true, example: "helloworld.Greeter/SayHello" },
  { long: "proto", takesValue: true, example: "greeter.proto" },
  { long: "import-path", short: "i", takesValue: true, repeatable: true, example: "protos/" },
  { long: "protoset", takesValue: true, example: "bundle.protoset" },
  { long: "reflect", takesValue: false },
  { long: "max-receive", takesValue: true, example: "4194304" },
  { long: "max-send", takesValue: true, example: "4194304" },
  { long: "compress", takesValue: true, example: "gzip" },
];

/** HTTP-only flags, refused with a grpc:// URL. */
const HTTP_ONLY = ["mix", "method", "content-type", "pipelining", "h2", "protocol"];

/** A grpc: or grpcs: URL. */
export function isGrpcUrl(url: URL): boolean {
  return url.protocol === "grpc:" || url.protocol === "grpcs:";
}

/** What a gRPC attack adds to the config, and where its calls come from. */
export interface GrpcArgs {
  /** The http: or https: origin the calls go to. */
  readonly url: string;
  readonly config: Pick<AttackConfig, "protocol" | "grpc">;
  readonly source: GrpcSource;
}

/**
 * The gRPC part of the flags for `url`, or undefined for another URL (which refuses gRPC flags); the
 * message's and metadata's placeholders name columns of `data` (`--data-file`) or built-in functions.
 */
export function grpcArgs(flags: FlagValues, url: URL, data?: DataSpec): GrpcArgs | undefined {
  if (!isGrpcUrl(url)) {
    const given = GRPC_FLAGS.find((f) => flags.has(f.long));
    if (given) {
      throw new UsageError(`--${given.long} needs a grpc:// or grpcs:// URL, e.g. grpc://127.0.0.1:50051`);
    }
    return undefined;
  }
  const http = HTTP_ONLY.find((f) => flags.has(f));
  if (http) {
    throw new UsageError(`--${http} is for HTTP; a grpc:// run calls --call pkg.Service/Method over HTTP/2`);
  }
  const call = flags.text("call");
  if (call === undefined) {
    throw new UsageError("a grpc:// run needs --call, e.g. --call helloworld.Greeter/SayHello");
  }
  const secure = url.protocol === "grpcs:";
  const bodyFile = flags.path("body-file");
  const message = bodyFile !== undefined
    ? new TextDecoder().decode(readBodyFile(bodyFile))
    : flags.text("body");
  const maxReceiveBytes = flags.positiveInt("max-receive");
  const metadata = flags.all("header").map(metadataOf);
  checkPlaceholderNames(metadata.map(([name, value]) => ["-H", `${name}: ${value}`]), data);
  return {
    url: new URL(`${secure ? "https" : "http"}://${url.host}/`).href,
    config: {
      protocol: secure ? "h2" : "h2c",
      grpc: { maxReceiveBytes: maxReceiveBytes ?? 4 * 1024 * 1024 },
    },
    source: {
      call,
      proto: flags.path("proto"),
      importPaths: flags.all("import-path"),
      protoset: flags.path("protoset"),
      reflect: flags.has("reflect") || undefined,
      message,
      metadata,
      ...compressOf(flags.text("compress")),
      maxSendBytes: flags.positiveInt("max-send"),
      // The message's placeholders are checked against these where it is read (call_spec.ts).
      names: data?.columns ?? [],
    },
  };
}

/** `--compress gzip` (the one encoding offered). */
function compressOf(value: string | undefined): { compress?: "gzip" } {
  if (value === undefined) return {};
  if (value === "gzip") return { compress: "gzip" };
  throw new UsageError(`--compress ${JSON.stringify(value)}: gzip is the one gRPC compression offered`);
}

/** `-H "name: value"` as metadata: a lower-case-able token name that gRPC itself does not set. */
function metadataOf(line: string): [string, string] {
  const colon = line.indexOf(":", 1);
  if (colon <= 0) throw new UsageError(`-H ${JSON.stringify(line)}: expected "name: value"`);
  const name = line.slice(0, colon).trim().toLowerCase();
  if (!/^[0-9a-z_.-]+$/.test(name) || name.startsWith("grpc-") || RESERVED_METADATA.has(name)) {
    throw new UsageError(
      `-H ${JSON.stringify(line)}: ${
        JSON.stringify(name)
      } cannot be metadata (letters, digits, _ . - only; ` +
        "not content-type, te, user-agent or grpc-*)",
    );
  }
  const value = line.slice(colon + 1).trim();
  const problem = metadataValueProblem(name, value);
  // Named, not shown: a metadata value may be a credential.
  if (problem !== null) throw new UsageError(`-H: ${problem}`);
  return [name, value];
}

/** `config` with its calls: the schema read (reflection asks the server), the message encoded once. */
export async function withGrpcCalls(config: AttackConfig, source: GrpcSource): Promise<AttackConfig> {
  try {
    const tls = { insecure: config.tls?.insecure, caFile: config.tls?.caFile, sni: config.tls?.sni };
    const root = await schemaOf(source, new URL(config.url).origin, config.timeoutMs, tls);
    return { ...config, requestMix: grpcRequestMix(root, source, config.timeoutMs) };
  } catch (err) {
    if (err instanceof GrpcSchemaError) {
      throw new UsageError(err.hint === "" ? err.message : `${err.message}; ${err.hint}`, { cause: err });
    }
    if (err instanceof GrpcMessageError) throw new UsageError(`-b ${err.message}`, { cause: err });
    throw err;
  }
}
