/**
 * @module
 * A gRPC run whose schema is the server's (`grpc.reflect`): asked once as the run starts, it becomes
 * `grpc.schema` and the section's call the request mix; a failure is a `ConfigError` at its path (exit 2).
 */
import protobuf from "protobufjs";
import "protobufjs/ext/descriptor/index.js";
import type { AttackConfig } from "../../config.ts";
import { ConfigError } from "../../../validation/config_error.ts";
import { reflectSchema } from "./reflection.ts";
import { callIssue, grpcCallSpec, grpcIssue } from "./call_spec.ts";

/** `root` as a FileDescriptorSet's bytes, the form a run's workers read its schema in. */
export function schemaBytes(root: protobuf.Root): Uint8Array<ArrayBuffer> {
  const set = (root as any).toDescriptor("proto3");
  return Uint8Array.from((protobuf as any).descriptor.FileDescriptorSet.encode(set).finish());
}

/** `config` with its schema asked of the server when it says `grpc.reflect`; else `config` itself. */
export async function withReflectedSchema(config: AttackConfig): Promise<AttackConfig> {
  const grpc = config.grpc;
  if (grpc?.reflect !== true) return config;
  let root: protobuf.Root;
  try {
    root = await reflectSchema(new URL(config.url).origin, config.timeoutMs, config.tls);
  } catch (err) {
    const { message } = grpcIssue(err, "grpc", "grpc.reflect");
    throw new ConfigError([{ path: "grpc.reflect", message: `the server's reflection: ${message}` }]);
  }
  const { reflect: _reflect, call, ...rest } = grpc;
  const sourceOf = (c: { call: string; message: unknown; metadata: Record<string, string> }) => ({
    call: c.call,
    message: JSON.stringify(c.message),
    metadata: Object.entries(c.metadata),
  });
  const source = call && { ...sourceOf(call), names: config.data?.columns ?? [] };
  const issues = [
    ...(source === undefined ? [] : [callIssue(root, source, "grpc")]),
    ...(config.flows ?? []).flatMap((flow, f) =>
      flow.steps.map((step, k) =>
        "grpc" in step ? callIssue(root, sourceOf(step.grpc), `flows[${f}].steps[${k}].grpc`) : null
      )
    ),
  ].filter((i) => i !== null);
  if (issues.length > 0) throw new ConfigError(issues);
  const mix = source === undefined ? config.requestMix : [grpcCallSpec(root, source, config.timeoutMs)];
  return { ...config, requestMix: mix, grpc: { ...rest, schema: schemaBytes(root) } };
}
