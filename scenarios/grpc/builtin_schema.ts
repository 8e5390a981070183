/**
 * @module
 * The built-in target's gRPC schema (targets/app/target.proto, service `loadlab.target.Target`), for an
 * experiment's `grpc:` section that names no `proto:` or `protoset:`: its calls go to the built-in target's
 * gRPC endpoints, whose schema ships inside loadlab.
 */
import protobuf from "protobufjs";
import targetProto from "../../targets/app/target.proto" with { type: "text" };

/** The built-in target's schema, parsed (field names kept as written, as for a .proto file). */
export function builtinTargetSchema(): protobuf.Root {
  const root = protobuf.parse(targetProto, new protobuf.Root(), { keepCase: true }).root;
  root.resolveAll();
  return root;
}
