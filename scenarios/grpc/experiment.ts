/**
 * @module
 * A top-level `grpc:` section makes its loads' requests one gRPC call (built-in schema if none).
 */
import { z } from "zod";
import type { RequestSpec } from "../../runner/request_spec.ts";
import { splitCall } from "../../runner/http/grpc/call.ts";
import { grpcTimeoutOf } from "../../grpc/timeout.ts";
import { DEFAULT_TIMEOUT_MS, GRPC_OPTIONS } from "../../runner/config_fields.ts";
import { fieldsOf } from "../../runner/option.ts";

export const grpcSectionSchema = z.strictObject({
  /** `pkg.Service/Method` (or `pkg.Service.Method`); absent: the section only names the flows' schema. */
  call: z.string().min(1, "call is pkg.Service/Method, e.g. helloworld.Greeter/SayHello").optional(),
  proto: z.string().min(1).optional(),
  importPaths: z.array(z.string().min(1)).default([]),
  protoset: z.string().min(1).optional(),
  /** The request message in proto3 JSON; absent: an empty message. */
  message: z.record(z.string(), z.unknown()).default({}),
  metadata: z.record(
    z.string().regex(/^[0-9a-z_.-]+$/, "metadata names are lower-case letters, digits, _ . -"),
    z.string(),
  )
    .default({}),
  ...fieldsOf(GRPC_OPTIONS),
  /** `gzip`: every message sent compressed (as `--compress gzip`). */
  compress: z.literal("gzip", { error: 'compress is "gzip", the one gRPC compression offered' }).optional(),
  /** Schema from the server's reflection service as each run starts (runner/http/grpc/reflected_run.ts). */
  reflect: z.literal(true, { error: "reflect is true, or left out" }).optional(),
  /** Only these loads make the call (default every load without a mix or flows of its own). */
  loads: z.array(z.string().min(1)).min(1).optional(),
}).refine((g) => [g.proto, g.protoset, g.reflect].filter((v) => v !== undefined).length <= 1, {
  message: "give the schema as proto: FILE (with importPaths:), protoset: FILE or reflect: true, one of " +
    "them (none: the built-in target's, loadlab.target.Target)",
}).refine((g) => g.reflect === undefined || g.compress === undefined, {
  message: "compress: gzip is not offered with reflect: true; give the schema as proto: or protoset:",
  path: ["compress"],
});
export type GrpcSection = z.output<typeof grpcSectionSchema>;

/** What a load's attack takes from the `grpc:` section: its calls, HTTP/2 unless h2c, the receive cap. */
export function grpcAttackFields(
  requests: readonly RequestSpec[],
  section: GrpcSection,
  load: { timeoutMs?: number; protocol?: string },
): { requestMix: RequestSpec[]; protocol: "h2" | "h2c"; grpc: { maxReceiveBytes: number } } {
  const timeout = grpcTimeoutOf(load.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  return {
    requestMix: requests.map((r) => ({
      ...r,
      headers: r.headers.map(([name, value]) => [name, name === "grpc-timeout" ? timeout : value]),
    })),
    protocol: load.protocol === "h2c" ? "h2c" : "h2",
    grpc: { maxReceiveBytes: section.maxReceiveBytes },
  };
}

/** What a load with gRPC flow steps takes from `grpc:`: HTTP/2, the receive cap, the schema's bytes. */
export function grpcFlowAttackFields(
  section: GrpcSection,
  schema: Uint8Array<ArrayBuffer> | undefined,
  load: { protocol?: string },
) {
  const maxReceiveBytes = section.maxReceiveBytes;
  return {
    protocol: load.protocol === "h2c" ? "h2c" as const : "h2" as const,
    grpc: schema === undefined ? { maxReceiveBytes, reflect: true as const } : { maxReceiveBytes, schema },
  };
}

/** What a load takes from a reflected `grpc:` section: its call, made as the run starts, and HTTP/2. */
export function grpcReflectAttackFields(section: GrpcSection, load: { protocol?: string }) {
  const parts = splitCall(section.call ?? "");
  const call = parts === null ? section.call ?? "" : `${parts[0]}/${parts[1]}`;
  return {
    protocol: load.protocol === "h2c" ? "h2c" as const : "h2" as const,
    grpc: {
      maxReceiveBytes: section.maxReceiveBytes,
      reflect: true as const,
      call: { call, message: section.message, metadata: section.metadata },
    },
  };
}
