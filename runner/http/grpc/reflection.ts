/**
 * @module
 * A gRPC server's schema by its reflection service (v1, else v1alpha), as ghz's `--reflect`: each
 * service's file and its dependencies gathered into a FileDescriptorSet.
 */
import protobuf from "protobufjs";
import type { Root } from "protobufjs";
import { GRPC_DEADLINE_EXCEEDED, GRPC_UNIMPLEMENTED } from "../../../grpc/status.ts";
import { OneOffChannel, type OneOffTls } from "../one_off_grpc.ts";
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

interface Reply {
  list_services_response?: { service: { name: string }[] };
  file_descriptor_response?: { file_descriptor_proto: Uint8Array[] };
  error_response?: { error_code: number; error_message: string };
}

/** The schema `origin` (http: or https:) serves by reflection; `metadata` goes with its calls. */
export async function reflectSchema(
  origin: string,
  timeoutMs: number,
  tls: OneOffTls = {},
  metadata: Record<string, string> = {},
): Promise<Root> {
  const session = new OneOffChannel(origin, timeoutMs, tls);
  try {
    for (const version of VERSIONS) {
      const path = `/${version}.ServerReflection/ServerReflectionInfo`;
      const ask = (requests: Record<string, string>[]) => call(session, path, requests, timeoutMs, metadata);
      const listed = await ask([{ list_services: "" }]);
      if (listed.status === GRPC_UNIMPLEMENTED) continue;
      if (listed.status !== 0) throw new GrpcSchemaError(`reflection at ${origin}: ${listed.problem}`);
      const names = listed.replies.flatMap((r) => r.list_services_response?.service.map((s) => s.name) ?? [])
        .filter((n) => !n.startsWith("grpc.reflection."));
      const files = await ask(names.map((n) => ({ file_containing_symbol: n })));
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

/** One call of the reflection stream: its requests sent, its replies decoded and status read. */
async function call(
  session: OneOffChannel,
  path: string,
  requests: Record<string, string>[],
  timeoutMs: number,
  metadata: Record<string, string>,
): Promise<{ status: number; problem: string; replies: Reply[] }> {
  const messages = requests.map((r) => Request.encode(Request.fromObject(r)).finish());
  const answer = await session.call(path, messages, timeoutMs, MAX_SCHEMA_BYTES, metadata)
    .catch((err: Error) => Promise.reject(new GrpcSchemaError(`reflection: ${err.message}`)));
  if (answer.status === GRPC_DEADLINE_EXCEEDED) {
    throw new GrpcSchemaError(`reflection: ${answer.problem}`, "raise --timeout");
  }
  const replies = answer.replies.map((r) => Response.toObject(Response.decode(r)) as Reply);
  const error = replies.find((r) => r.error_response)?.error_response;
  const problem = error !== undefined ? error.error_message : answer.problem;
  return { status: error !== undefined && answer.status === 0 ? 2 : answer.status, problem, replies };
}
