/**
 * @module
 * The built-in target's gRPC schema, for a `grpc:` section that names no `proto:` or `protoset:`.
 */
import protobuf from "protobufjs";
import targetProto from "../../targets/app/target.proto" with { type: "text" };

/** The built-in target's schema, parsed (field names kept as written, as for a .proto file). */
export function builtinTargetSchema(): protobuf.Root {
  const root = protobuf.parse(targetProto, new protobuf.Root(), { keepCase: true }).root;
  root.resolveAll();
  return root;
}
