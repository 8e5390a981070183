/**
 * @module
 * A flow's gRPC step as config holds it: `call`, `message` (proto3 JSON), `metadata`, label, capture, expect.
 */
import { z } from "zod";
import { RESERVED_METADATA } from "./http/grpc/call.ts";
import { customIssue, issueList, type PathIssue } from "../validation/mod.ts";

/** Metadata names: lower-case tokens that gRPC itself does not set. */
const METADATA_NAME = /^(?!grpc-)[0-9a-z_.-]+$/;

/** Why metadata `value` of `name` cannot be sent (a control character draws GOAWAY), or null. */
export function metadataValueProblem(name: string, value: string): string | null {
  // deno-lint-ignore no-control-regex -- matching control characters is the point
  if (name.endsWith("-bin") || !/[\x00-\x1f\x7f]/.test(value)) return null;
  return `metadata ${name}: its value has a control character (line break, tab, NUL...); write it on one ` +
    `line of text, or name it ${name}-bin to send it as bytes`;
}

/** The fields of a gRPC step, the method in the form the file allows. */
export const grpcStepFields = {
  message: z.union([z.record(z.string(), z.unknown()), z.array(z.record(z.string(), z.unknown()))], {
    error: "message is the request in proto3 JSON: an object (a list of them for a client stream)",
  }).default({}),
  metadata: z.record(
    z.string().regex(METADATA_NAME, "metadata names are lower-case letters, digits, _ . - (not grpc-*)"),
    z.string(),
  ).superRefine((metadata, ctx) => {
    for (const name of Object.keys(metadata).filter((n) => RESERVED_METADATA.has(n))) {
      customIssue(ctx, [name], "gRPC sets this field itself: it cannot be metadata");
    }
    for (const [name, value] of Object.entries(metadata)) {
      const problem = metadataValueProblem(name, value);
      if (problem !== null) customIssue(ctx, [name], problem);
    }
  }).default({}),
};

/** `pkg.Service/Method`, as the engine takes a step's call. */
const ENGINE_CALL = /^[A-Za-z_][\w.]*\/[A-Za-z_]\w*$/;

/** A gRPC step of the attack config: its call as `pkg.Service/Method`. */
export const grpcStepSchema = z.strictObject({
  call: z.string().regex(ENGINE_CALL, "call is pkg.Service/Method, e.g. helloworld.Greeter/SayHello"),
  ...grpcStepFields,
});
export type GrpcStep = z.output<typeof grpcStepSchema>;

/** What gRPC runs take of flows and scripts: flows of gRPC steps only, with a schema; no script. */
export function grpcFlowIssues(c: {
  grpc?: { schema?: Uint8Array; reflect?: true; call?: unknown };
  flows?: readonly { steps: readonly object[] }[];
  script?: unknown;
}): PathIssue[] {
  const [issues, add] = issueList();
  c.flows?.forEach((flow, f) =>
    flow.steps.forEach((step, k) => {
      const at = ["flows", f, "steps", k];
      if (c.grpc === undefined && "grpc" in step) {
        add([...at, "grpc"], "a gRPC step needs a gRPC run: add grpc (with its schema)");
      } else if (c.grpc !== undefined && ("request" in step || "ws" in step)) {
        add(
          at,
          "a gRPC run's flows make gRPC calls only: write this step as grpc: {call, message}, " +
            "or run it in a load of its own",
        );
      }
    })
  );
  if (
    c.grpc !== undefined && c.grpc.schema === undefined && c.grpc.reflect === undefined &&
    c.flows?.some((f) => f.steps.some((s) => "grpc" in s))
  ) {
    add(["grpc", "schema"], "gRPC steps need the schema (a FileDescriptorSet's bytes)");
  }
  if (c.grpc?.call !== undefined && c.grpc.reflect === undefined) {
    add(["grpc", "call"], "grpc.call is made from a reflected schema: add reflect: true");
  }
  if (c.grpc !== undefined && c.script !== undefined) {
    add(["grpc"], "gRPC calls go as a request mix or flows' grpc steps: a script makes its own");
  }
  return issues;
}
