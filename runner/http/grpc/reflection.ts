/**
 * @module
 * A gRPC server's schema by its reflection service (v1, else v1alpha), as ghz's `--reflect`: services
 * listed, each one's file asked (with its dependencies), gathered into a FileDescriptorSet. A one-off
 * node:http2 client for setup, bounded by `timeoutMs`.
 */
import http2 from "node:http2";
import { readFileSync } from "node:fs";
import protobuf from "protobufjs";
import type { Root } from "protobufjs";
import { frameMessage, MessageReader, READ_OK, READ_TOO_BIG } from "../../../grpc/framing.ts";
import { grpcStatusValue } from "../../../grpc/status.ts";
import { GrpcSchemaError, MAX_SCHEMA_BYTES, rootOfDescriptorSet } from "./schema.ts";

const REFLECTION_PROTO = `syntax = "proto3";
message ServerReflectionRequest {
  string host = 1;
  oneof message_request { string file_by_filename = 3; string file_containing_symbol = 4; string list_services = 7; }
}
message ServerReflectionResponse {
  string valid_host = 1;
  oneof message_response {
    FileDescriptorResponse file_descriptor_response = 4;
    ListServiceResponse list_services_response = 6;
    ErrorResponse error_response = 7;
  }
}
message FileDescriptorResponse { repeated bytes file_descriptor_proto = 1; }
message ListServiceResponse { repeated ServiceResponse service = 1; }
message ServiceResponse { string name = 1; }
message ErrorResponse { int32 error_code = 1; string error_message = 2; }`;

const types = protobuf.parse(REFLECTION_PROTO, { keepCase: true }).root;
const Request = types.lookupType("ServerReflectionRequest");
const Response = types.lookupType("ServerReflectionResponse");
const VERSIONS = ["grpc.reflection.v1", "grpc.reflection.v1alpha"];
const UNIMPLEMENTED = 12;

/** How an https: origin is verified: the run's own TLS options (`-k`, `--cacert`, `--sni`). */
export interface ReflectTls {
  readonly insecure?: boolean;
  readonly caFile?: string;
  readonly sni?: string;
}

interface Reply {
  list_services_response?: { service: { name: string }[] };
  file_descriptor_response?: { file_descriptor_proto: Uint8Array[] };
  error_response?: { error_code: number; error_message: string };
}

/** The schema `origin` (http: or https:) serves by reflection. */
export async function reflectSchema(origin: string, timeoutMs: number, tls: ReflectTls = {}): Promise<Root> {
  const ca = tls.caFile === undefined ? undefined : readFileSync(tls.caFile, "utf8");
  const session = http2.connect(origin, {
    rejectUnauthorized: tls.insecure !== true,
    ca,
    servername: tls.sni,
  });
  session.on("error", () => {});
  try {
    for (const version of VERSIONS) {
      const path = `/${version}.ServerReflection/ServerReflectionInfo`;
      const listed = await call(session, path, [{ list_services: "" }], timeoutMs);
      if (listed.status === UNIMPLEMENTED) continue;
      if (listed.status !== 0) throw new GrpcSchemaError(`reflection at ${origin}: ${listed.problem}`);
      const names = listed.replies.flatMap((r) => r.list_services_response?.service.map((s) => s.name) ?? [])
        .filter((n) => !n.startsWith("grpc.reflection."));
      const files = await call(session, path, names.map((n) => ({ file_containing_symbol: n })), timeoutMs);
      if (files.status !== 0) throw new GrpcSchemaError(`reflection at ${origin}: ${files.problem}`);
      return rootOfDescriptorSet(descriptorSet(files.replies), `reflection at ${origin}`);
    }
    throw new GrpcSchemaError(
      `${origin} has no reflection service (neither v1 nor v1alpha)`,
      "give the schema with --proto FILE or --protoset FILE",
    );
  } finally {
    session.close();
  }
}

/** Each distinct file of the replies as field 1 of a FileDescriptorSet. */
function descriptorSet(replies: Reply[]): Uint8Array {
  const seen = new Set<string>();
  const writer = protobuf.Writer.create();
  for (const file of replies.flatMap((r) => r.file_descriptor_response?.file_descriptor_proto ?? [])) {
    const key = Array.from(file.subarray(0, 64)).join(",") + `:${file.length}`;
    if (seen.has(key)) continue;
    seen.add(key);
    writer.uint32(0x0a).bytes(file);
  }
  return writer.finish();
}

/** One call of the reflection stream: its requests sent, its replies and status read. */
function call(
  session: http2.ClientHttp2Session,
  path: string,
  requests: Record<string, string>[],
  timeoutMs: number,
): Promise<{ status: number; problem: string; replies: Reply[] }> {
  return new Promise((done, fail) => {
    const stream = session.request({
      ":method": "POST",
      ":path": path,
      "content-type": "application/grpc",
      te: "trailers",
    });
    const timer = setTimeout(() => {
      stream.close();
      fail(new GrpcSchemaError(`reflection: no answer within ${timeoutMs} ms`, "raise --timeout"));
    }, timeoutMs);
    const replies: Reply[] = [];
    // One reply may be the whole schema; all of a call's together may not pass what a schema file may.
    const reader = new MessageReader(MAX_SCHEMA_BYTES);
    let receivedBytes = 0;
    reader.onMessage = (payload) => replies.push(Response.toObject(Response.decode(payload)) as Reply);
    let head: http2.IncomingHttpHeaders = {};
    stream.on("response", (h) => (head = h));
    stream.on("data", (chunk: Uint8Array) => {
      if (stream.closed) return;
      receivedBytes += chunk.length;
      const read = receivedBytes > MAX_SCHEMA_BYTES ? READ_TOO_BIG : reader.feed(chunk, 0, chunk.length);
      if (read === READ_OK) return;
      stream.close();
      if (read !== READ_TOO_BIG) return;
      clearTimeout(timer);
      fail(
        new GrpcSchemaError(
          `reflection: the server's answer passed ${MAX_SCHEMA_BYTES} bytes, a schema's cap`,
        ),
      );
    });
    stream.on(
      "error",
      (err) => (clearTimeout(timer), fail(new GrpcSchemaError(`reflection: ${err.message}`))),
    );
    stream.on("trailers", (t) => (head = { ...head, ...t }));
    stream.on("close", () => {
      clearTimeout(timer);
      const text = new TextEncoder().encode(String(head["grpc-status"] ?? ""));
      const status = grpcStatusValue(text, 0, text.length);
      const error = replies.find((r) => r.error_response)?.error_response;
      const problem = error !== undefined
        ? error.error_message
        : `grpc-status ${head["grpc-status"] ?? "missing"} ${head["grpc-message"] ?? ""}`.trim();
      done({ status: error !== undefined && status === 0 ? 2 : status, problem, replies });
    });
    for (const r of requests) stream.write(frameMessage(Request.encode(Request.fromObject(r)).finish()));
    stream.end();
  });
}
