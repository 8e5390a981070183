/**
 * @module
 * A gRPC run's calls from what a user gave (`loadlab attack grpc://...` flags, an experiment's `protocol:
 * grpc` fields): the schema (a .proto with its import paths, a protoset, or the server's reflection), the
 * method, the message as JSON and the metadata, made into the run's request mix (runner/http/grpc/call.ts)
 * with every message encoded once. What does not fit is a `GrpcSchemaError` or a `GrpcMessageError`
 * naming the problem before any load: an unknown service or method (with the ones that exist), a message
 * not fitting its type (with its path), placeholders (not taken yet).
 */
import type { Root, Type } from "protobufjs";
import type { RequestSpec } from "../../runner/request_spec.ts";
import { grpcRequestSpec } from "../../runner/http/grpc/call.ts";
import { findMethod, GrpcSchemaError, loadProtoFile, loadProtoset } from "../../runner/http/grpc/schema.ts";
import { encodeMessage, encodeMessageText, GrpcMessageError } from "../../runner/http/grpc/message.ts";
import { reflectSchema, type ReflectTls } from "./reflection.ts";
import { DEFAULT_MAX_MESSAGE_BYTES } from "../../grpc/framing.ts";

/** Where a run's schema comes from, and what it calls. */
export interface GrpcSource {
  /** `pkg.Service/Method` or `pkg.Service.Method`. */
  readonly call: string;
  readonly proto?: string;
  readonly importPaths?: readonly string[];
  readonly protoset?: string;
  /** Ask the server's reflection service (at `origin`). */
  readonly reflect?: boolean;
  /** The message as JSON text; absent: `{}`. */
  readonly message?: string;
  readonly metadata?: readonly (readonly [string, string])[];
  /** Compress the messages with gzip. */
  readonly compress?: "gzip";
  /** The cap of one sent message, bytes (4 MiB unless set): a bigger one is refused before the load. */
  readonly maxSendBytes?: number;
}

/** The schema `source` names; with none of proto, protoset or reflect, a usage problem. */
export async function schemaOf(
  source: GrpcSource,
  origin: string,
  timeoutMs: number,
  tls: ReflectTls = {},
): Promise<Root> {
  const given = [source.proto, source.protoset, source.reflect ? "reflect" : undefined].filter((v) =>
    v !== undefined
  );
  if (given.length !== 1) {
    throw new GrpcSchemaError(
      given.length === 0 ? "a gRPC run needs its schema" : "give one schema, not several",
      "--proto FILE (-i DIR for its imports), --protoset FILE, or --reflect",
    );
  }
  if (source.proto !== undefined) return loadProtoFile(source.proto, source.importPaths ?? []);
  if (source.protoset !== undefined) return loadProtoset(source.protoset);
  return await reflectSchema(origin, timeoutMs, tls);
}

/**
 * The run's request mix for `source` against `root`: one call. A client-streaming or bidi method takes a
 * JSON array, its messages sent in order (an object is one message).
 */
export function grpcRequestMix(root: Root, source: GrpcSource, timeoutMs: number): RequestSpec[] {
  const method = findMethod(root, source.call);
  const text = source.message ?? (method.clientStreaming ? "[]" : "{}");
  if (/\{\{.*\}\}/s.test(text)) {
    throw new GrpcSchemaError(
      "gRPC messages take no {{ placeholders }} yet: each is encoded once before the load",
      "give the message's values as they are",
    );
  }
  const message = method.clientStreaming
    ? streamOf(method.requestType, text)
    : encodeMessageText(method.requestType, text);
  checkSendCap(message, source.maxSendBytes ?? DEFAULT_MAX_MESSAGE_BYTES);
  const call = { method: method.path, message, metadata: source.metadata, compress: source.compress };
  return [grpcRequestSpec(call, timeoutMs)];
}

/** A client stream's messages: a JSON array (each at `message[k]`), or one object. */
function streamOf(type: Type, text: string): Uint8Array[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new GrpcMessageError("message", `not JSON (${(err as Error).message})`);
  }
  return Array.isArray(json)
    ? json.map((m, k) => encodeMessage(type, m, `message[${k}]`))
    : [encodeMessage(type, json)];
}

/** Every message within the send cap (as encoded, before compression), or a `GrpcMessageError` naming it. */
function checkSendCap(message: Uint8Array | Uint8Array[], maxBytes: number): void {
  const messages = message instanceof Uint8Array ? [message] : message;
  messages.forEach((m, k) => {
    if (m.length <= maxBytes) return;
    const path = message instanceof Uint8Array ? "message" : `message[${k}]`;
    throw new GrpcMessageError(
      path,
      `${m.length} bytes encoded, over the ${maxBytes}-byte send cap (--max-send)`,
    );
  });
}
