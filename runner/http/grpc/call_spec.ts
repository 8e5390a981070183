/**
 * @module
 * One gRPC call as the request its connection sends, from what a user wrote: the method from the schema,
 * the message encoded once, or with placeholders a template filled per call; a mix's and a flow's alike.
 */
import type { Root } from "protobufjs";
import type { RequestSpec } from "../../request_spec.ts";
import { grpcRequestSpec } from "./call.ts";
import { findMethod, type GrpcMethod, GrpcSchemaError } from "./schema.ts";
import { encodeMessage, GrpcMessageError, parseMessageText } from "./message.ts";
import { DEFAULT_MAX_MESSAGE_BYTES } from "../../../grpc/framing.ts";
import { hasPlaceholder } from "../template.ts";
import type { GrpcBodySpec } from "../grpc_body_spec.ts";
import { bodySpecOfText } from "./message_template.ts";
import { defined } from "../../../validation/defined.ts";
import type { Issue } from "../../../validation/mod.ts";

export interface GrpcCallSource {
  /** `pkg.Service/Method` or `pkg.Service.Method`. */
  readonly call: string;
  /** The message as JSON text; absent: `{}` (`[]` for a client stream). */
  readonly message?: string;
  readonly metadata?: readonly (readonly [string, string])[];
  readonly compress?: "gzip";
  /** The cap of one sent message, bytes (4 MiB unless set): a bigger one is refused before the load. */
  readonly maxSendBytes?: number;
  /** The names a placeholder may use (checked here when given). */
  readonly names?: readonly string[];
  /** Of two members of one oneof, the later one is sent (ghz's JSON reader), not refused. */
  readonly laterOneof?: boolean;
}

/** The request of `source`'s call in `root` with deadline `timeoutMs`; streaming takes a JSON array. */
export function grpcCallSpec(root: Root, source: GrpcCallSource, timeoutMs: number): RequestSpec {
  const method = findMethod(root, source.call);
  const text = source.message ?? (method.clientStreaming ? "[]" : "{}");
  const { metadata, compress } = source;
  const call = { method: method.path, metadata, compress, unary: !method.serverStreaming };
  if (hasPlaceholder(text)) {
    return grpcRequestSpec({ ...call, ...templateOf(method, text, source), message: EMPTY }, timeoutMs);
  }
  const message = messagesOf(method, parseMessageText(text), source.laterOneof);
  // Every message within the send cap (as encoded, before compression).
  const maxBytes = source.maxSendBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const messages = [message].flat(), k = messages.findIndex((m) => m.length > maxBytes);
  const why = `${messages[k]?.length} bytes encoded, over the ${maxBytes}-byte send cap (--max-send)`;
  if (k >= 0) throw new GrpcMessageError(Array.isArray(message) ? `message[${k}]` : "message", why);
  // A body's `{{` reads as a placeholder where it is sent: bytes holding one go as a template of no slot.
  const literal = messages.some((m) => hasPlaceholder(new TextDecoder().decode(m)));
  if (!literal) return grpcRequestSpec({ ...call, message }, timeoutMs);
  const template = withCaps({ messages: messages.map((m) => ({ pieces: [m], slots: [] })) }, source);
  return grpcRequestSpec({ ...call, ...template, message: EMPTY }, timeoutMs);
}

/** A template filled per call, each message compressed and checked then (protobuf_template.ts). */
const withCaps = (spec: GrpcBodySpec, { compress, maxSendBytes }: GrpcCallSource) => ({
  template: { ...spec, ...defined({ compress, maxSendBytes }) },
});

const EMPTY = new Uint8Array(0);

/** A message with placeholders as its template; what cannot go with one is a `GrpcSchemaError`. */
function templateOf(method: GrpcMethod, text: string, source: GrpcCallSource): { template: GrpcBodySpec } {
  const binary = source.metadata?.find(([name, value]) => name.endsWith("-bin") && hasPlaceholder(value));
  if (binary !== undefined) {
    throw new GrpcSchemaError(
      `metadata ${binary[0]}: a -bin value is base64-encoded once, before the load`,
      "write it without placeholders",
    );
  }
  const { requestType, clientStreaming } = method;
  return withCaps(
    bodySpecOfText(requestType, text, clientStreaming, source.names, source.laterOneof),
    source,
  );
}

/** The call's message, or a client stream's messages: a JSON array (each at `message[k]`) or one object. */
function messagesOf({ requestType, clientStreaming }: GrpcMethod, json: unknown, later?: boolean) {
  if (!clientStreaming) return encodeMessage(requestType, json, "message", later);
  const list = Array.isArray(json) ? json : [json];
  return list.map((m, k) =>
    encodeMessage(requestType, m, list === json ? `message[${k}]` : "message", later)
  );
}

/** The problem of making `source`'s call against `root`, as an issue at `path`, or null when it fits. */
export function callIssue(root: Root, source: GrpcCallSource, path: string): Issue | null {
  try {
    grpcCallSpec(root, source, 10_000);
    return null;
  } catch (err) {
    return grpcIssue(err, path);
  }
}

/** A gRPC misfit as an issue (a message's under `path`, a schema's at `schemaPath`); others rethrown. */
export function grpcIssue(err: unknown, path: string, schemaPath = `${path}.call`): Issue {
  if (err instanceof GrpcMessageError) {
    return { path: `${path}.${err.path}`, message: err.message.slice(err.path.length + 2) };
  }
  if (!(err instanceof GrpcSchemaError)) throw err;
  return { path: schemaPath, message: err.hint ? `${err.message}; ${err.hint}` : err.message };
}
