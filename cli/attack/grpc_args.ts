/**
 * @module
 * The gRPC flags of `loadlab attack` (a grpc:// or grpcs:// URL), named as ghz names them.
 */
import { flag, type FlagSpec, type RawArgs } from "../argv.ts";
import { type FlagValues, optionFlags, optionValues } from "../flag_values.ts";
import { GRPC_OPTIONS } from "../../runner/config_fields.ts";
import { UsageError } from "../usage_error.ts";
import type { AttackConfig, AttackConfigInput } from "../../runner/config.ts";
import { RESERVED_METADATA } from "../../runner/http/grpc/call.ts";
import { metadataValueProblem } from "../../runner/grpc_step_spec.ts";
import type { GrpcSource } from "../../scenarios/grpc/calls.ts";
import type { GrpcRun } from "../../runner/http/grpc/answer.ts";
import type { DataSpec } from "../../runner/session_schema.ts";
import { checkPlaceholderNames, readBodyFile } from "./request_args.ts";
import { LOAD_MODEL_FACTS } from "../../results/load_models.ts";

const CAP_FLAGS = optionFlags(GRPC_OPTIONS, "grpc.");

export const GRPC_FLAGS: FlagSpec[] = [
  flag("--call M", { example: "helloworld.Greeter/SayHello" }, [
    "the method, pkg.Service/Method (or pkg.Service.Method)",
  ]),
  flag("--proto FILE", { example: "greeter.proto" }, ["the schema as a .proto file"]),
  flag("-i, --import-path DIR", { aliases: ["import-paths"], repeatable: true, example: "protos/" }, [
    "where its imports are (repeatable; --import-paths A,B too)",
  ]),
  flag("--protoset FILE", { example: "bundle.protoset" }, [
    "the schema as a FileDescriptorSet (protoc --descriptor_set_out)",
  ]),
  flag("--reflect", {}, ["the schema from the server's reflection service"]),
  flag("--reflect-header H", { repeatable: true, example: "authorization: Bearer t" }, [
    "metadata sent with the reflection calls only (repeatable)",
  ]),
  ...Object.values(CAP_FLAGS),
  flag("--compress gzip", { example: "gzip" }, [
    "send every message gzip-compressed (and accept gzip replies)",
  ]),
];

/** HTTP-only flags, refused with a grpc:// URL (and a ws:// one). */
export const HTTP_ONLY = ["mix", "content-type", "pipelining", "h2", "h3", "protocol"];

function isGrpcUrl(url: URL): boolean {
  return url.protocol === "grpc:" || url.protocol === "grpcs:";
}

/** What a gRPC attack adds to the config, and where its calls come from. */
interface GrpcArgs {
  /** The http: or https: origin the calls go to. */
  readonly url: string;
  readonly config: Pick<AttackConfigInput, "protocol" | "grpc">;
  readonly source: GrpcSource;
}

/** The gRPC part of the flags for `url`, or undefined for another URL (which refuses gRPC flags). */
export function grpcArgs(flags: FlagValues, url: URL, data?: DataSpec): GrpcArgs | undefined {
  if (!isGrpcUrl(url)) {
    const given = GRPC_FLAGS.find((f) => flags.has(f.long));
    if (given) {
      const body = given.long === "import-path" ? "; autocannon's -i body file is -D FILE" : "";
      throw new UsageError(`${flags.typed(given.long)} needs a grpc:// or grpcs:// URL${body}`);
    }
    return undefined;
  }
  const http = [...HTTP_ONLY, "method"].find((f) => flags.has(f));
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
  const metadata = flags.all("header").map(metadataOf);
  const caps = optionValues(flags, GRPC_OPTIONS, CAP_FLAGS) as { [K in keyof typeof GRPC_OPTIONS]?: number };
  checkPlaceholderNames(metadata.map(([name, value]) => ["-H", `${name}: ${value}`]), data);
  return {
    url: new URL(`${secure ? "https" : "http"}://${url.host}/`).href,
    config: { protocol: secure ? "h2" : "h2c", grpc: { maxReceiveBytes: caps.maxReceiveBytes } },
    source: {
      call,
      proto: flags.path("proto"),
      // ghz's --import-paths is one comma-separated list.
      importPaths: flags.all("import-path").flatMap((dirs) => dirs.split(",")),
      protoset: flags.path("protoset"),
      reflect: flags.has("reflect") || undefined,
      reflectMetadata: Object.fromEntries(flags.all("reflect-header").map(metadataOf)),
      message,
      metadata,
      ...compressOf(flags.text("compress")),
      maxSendBytes: caps.maxSendBytes,
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

/** `-c` and `--connections` folded as the URL reads them: ghz's on a grpc:// URL, else loadlab's. */
export function foldConcurrency(raw: RawArgs, flags: FlagValues, url: URL): number | undefined {
  const typed = flags.typed("concurrency");
  const n = flags.positiveInt("concurrency");
  raw.values.delete("concurrency");
  raw.spelled.delete("concurrency");
  if (n === undefined) return undefined;
  if (!isGrpcUrl(url) || flags.has("streams")) {
    if (flags.has("connections")) {
      throw new UsageError(
        `${typed} and --connections both set the connections; give one` +
          (isGrpcUrl(url) ? " (without --streams, -c is ghz's calls in flight over --connections)" : ""),
      );
    }
    raw.values.set("connections", [String(n)]);
    raw.spelled.set("connections", typed);
    return undefined;
  }
  const connections = flags.positiveInt("connections") ?? 1;
  if (n < connections) {
    throw new UsageError(
      `${typed} ${n}: fewer calls in flight than --connections ${connections}; give ${typed} ${connections} or more`,
    );
  }
  raw.values.set("connections", [String(connections)]);
  raw.spelled.set("connections", "--connections");
  raw.values.set("streams", [String(Math.ceil(n / connections))]);
  return n;
}

/** What a gRPC run keeps in flight, said at start-up; null when connections open as it goes. */
export function inFlightLine(config: AttackConfig): string | null {
  const hasRate = "ratePerSec" in config && config.ratePerSec !== undefined;
  if (!("connections" in config) || LOAD_MODEL_FACTS[config.model].pacing(hasRate) === "open") return null;
  const [m, s] = [config.connections, config.streams];
  const over = `${m} connection${m === 1 ? "" : "s"}`;
  const steps = config.concurrencySteps?.map((c) => `${c.concurrency} from ${c.atMs / 1000} s`).join(", ");
  if (steps !== undefined) return `calls in flight ${steps} over ${over} (ghz's concurrency schedule)`;
  if (config.concurrency !== undefined) {
    return `${config.concurrency} calls in flight over ${over} (ghz's -c and --connections)`;
  }
  return `${m * s} calls in flight: ${over} x ${s} stream${s === 1 ? "" : "s"}`;
}

/** `-H "name: value"` as metadata: a lower-case-able token name that gRPC itself does not set. */
function metadataOf(line: string): [string, string] {
  const colon = line.indexOf(":", 1);
  if (colon <= 0) throw new UsageError(`-H ${JSON.stringify(line)}: expected "name: value"`);
  const name = line.slice(0, colon).trim().toLowerCase();
  if (!/^[0-9a-z_.-]+$/.test(name) || name.startsWith("grpc-") || RESERVED_METADATA.has(name)) {
    const why =
      "cannot be metadata (letters, digits, _ . - only; not content-type, te, user-agent or grpc-*)";
    throw new UsageError(`-H ${JSON.stringify(line)}: ${JSON.stringify(name)} ${why}`);
  }
  const value = line.slice(colon + 1).trim();
  const problem = metadataValueProblem(name, value);
  // Named, not shown: a metadata value may be a credential.
  if (problem !== null) throw new UsageError(`-H: ${problem}`);
  return [name, value];
}

/**
 * `config` with its calls: the schema read (reflection asks the server), the message encoded once; a server
 * stream's calls end at `streamEnd` (ghz's stream-call count and duration). protobuf.js loads here only.
 */
export async function withGrpcCalls(config: AttackConfig, source: GrpcSource, streamEnd?: Partial<GrpcRun>) {
  const { findMethod } = await import("../../runner/http/grpc/schema.ts");
  const { grpcIssue } = await import("../../runner/http/grpc/call_spec.ts");
  const { grpcRequestMix, schemaOf } = await import("../../scenarios/grpc/calls.ts");
  try {
    const root = await schemaOf(source, new URL(config.url).origin, config.timeoutMs, config.tls);
    const { serverStreaming, clientStreaming } = findMethod(root, source.call);
    const grpc = serverStreaming && !clientStreaming ? { ...config.grpc!, ...streamEnd } : config.grpc;
    return { ...config, grpc, requestMix: grpcRequestMix(root, source, config.timeoutMs) };
  } catch (err) {
    // A message's misfit is named at -b (`-b message.name: ...`).
    const { path, message } = grpcIssue(err, "-b", "");
    throw new UsageError(path === "" ? message : `${path.replace(".", " ")}: ${message}`, { cause: err });
  }
}
