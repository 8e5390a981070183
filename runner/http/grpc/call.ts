/**
 * @module
 * A gRPC call as one request of the run's mix, made once before the load: `POST /pkg.Service/Method` with
 * `application/grpc`, `te: trailers`, the run's timeout as `grpc-timeout`, metadata as header fields (`-bin`
 * base64) and the length-prefixed messages as the body (gzip-compressed once with `compress`).
 */
import type { RequestSpec } from "../../request_spec.ts";
import { frameMessage } from "../../../grpc/framing.ts";
import { grpcTimeoutOf } from "../../../grpc/timeout.ts";
import { gzipSync } from "node:zlib";
import type { GrpcBodySpec } from "../grpc_body_spec.ts";
import { concatBytes } from "../../../system/copy_bytes.ts";

/** One call of a gRPC run, its message encoded already (protobuf bytes, without the prefix). */
export interface GrpcCall {
  /** `pkg.Service/Method`. */
  readonly method: string;
  /** One message, or a client stream's messages in order. */
  readonly message: Uint8Array | readonly Uint8Array[];
  /** Metadata (names as given, lower-cased on the wire); a `-bin` name's value is sent base64-encoded. */
  readonly metadata?: readonly (readonly [string, string])[];
  /** The endpoint it is reported under; default its method. */
  readonly name?: string;
  readonly weight?: number;
  /** Compress every message with gzip (once, here). */
  readonly compress?: "gzip";
  /** The messages with placeholders, filled and encoded per call in place of `message`. */
  readonly template?: GrpcBodySpec;
  /** The method answers one message (not a server stream): a second one is a broken answer. */
  readonly unary?: boolean;
}

/** Header fields gRPC itself sets: metadata may not name them. */
export const RESERVED_METADATA = new Set(
  "content-type te grpc-timeout grpc-encoding grpc-accept-encoding user-agent".split(" "),
);

/** A `-bin` metadata value as it travels: its UTF-8 bytes in unpadded base64, as gRPC sends it. */
function binaryMetadataValue(value: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(value))).replace(/=+$/, "");
}

/** `call` as a request of the mix, its deadline `timeoutMs`. */
export function grpcRequestSpec(call: GrpcCall, timeoutMs: number): RequestSpec {
  const headers: [string, string][] = [
    ["content-type", "application/grpc"],
    ["te", "trailers"],
    ["grpc-timeout", grpcTimeoutOf(timeoutMs)],
  ];
  if (call.compress === "gzip") headers.push(["grpc-encoding", "gzip"], ["grpc-accept-encoding", "gzip"]);
  for (const [name, value] of call.metadata ?? []) {
    const lower = name.toLowerCase();
    headers.push([lower, lower.endsWith("-bin") ? binaryMetadataValue(value) : value]);
  }
  return {
    method: "POST",
    path: `/${call.method}`,
    headers,
    ...(call.template !== undefined
      ? { grpcMessage: call.template }
      : { body: bodyOf(call.message, call.compress === "gzip") }),
    weight: call.weight ?? 1,
    name: call.name ?? call.method,
    ...(call.unary === true ? { grpcUnary: true } : {}),
  };
}

/** The call's messages, each length-prefixed, back to back. */
function bodyOf(message: Uint8Array | readonly Uint8Array[], gzip: boolean): Uint8Array<ArrayBuffer> {
  const frame = (m: Uint8Array) => gzip ? frameMessage(gzipSync(m), true) : frameMessage(m);
  return message instanceof Uint8Array ? frame(message) : concatBytes(message.map(frame));
}

/** `pkg.Service/Method` or `pkg.Service.Method` as [service, method], or null when it is neither. */
export function splitCall(call: string): [string, string] | null {
  const slash = call.replace(/^\//, "").split("/");
  if (slash.length === 2 && slash[0] !== "" && slash[1] !== "") return [slash[0], slash[1]];
  const dot = call.lastIndexOf(".");
  return slash.length === 1 && dot > 0 && dot < call.length - 1
    ? [call.slice(0, dot), call.slice(dot + 1)]
    : null;
}
