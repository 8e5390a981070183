/**
 * @module
 * A flow's gRPC step as the attack config holds it (runner/flow_spec.ts) and an experiment file writes it
 * (scenarios/schema_requests.ts): `call` names the method (`pkg.Service/Method`; a file may write ghz's
 * `pkg.Service.Method`, which the plan turns into this form), `message` is the request in proto3 JSON (a
 * list of messages for a client-streaming or bidi method) whose strings may hold `{{ placeholders }}`
 * (data columns, earlier captures, built-in functions), `metadata` its metadata (values may hold
 * placeholders too). The schema is the run's (`grpc.schema`, from the file's `grpc:` section). Beside it
 * the step takes a request step's `label`, `capture`, `expect` and `maxKeptBytes`; its captures and
 * checks read the reply as proto3 JSON (runner/load/grpc_steps.ts).
 */
import { z } from "zod";
import type { RequestSpec } from "./request_spec.ts";
import { RESERVED_METADATA } from "./http/grpc/call.ts";
/** A problem at its path in the attack config. */
type Issue = { path: Array<string | number>; message: string };

/** Metadata names: lower-case tokens that gRPC itself does not set. */
const METADATA_NAME = /^(?!grpc-)[0-9a-z_.-]+$/;

/**
 * Why metadata value `value` of `name` cannot be sent, or null: a control character (CR, LF, NUL and the
 * rest) is refused by HTTP/2 servers, which end the connection (GOAWAY) on the first call. A `-bin`
 * name's value travels base64-encoded (runner/http/grpc/call.ts), so it may hold any character.
 */
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
      ctx.addIssue({
        code: "custom",
        path: [name],
        message: "gRPC sets this field itself: it cannot be metadata",
      });
    }
    for (const [name, value] of Object.entries(metadata)) {
      const problem = metadataValueProblem(name, value);
      if (problem !== null) ctx.addIssue({ code: "custom", path: [name], message: problem });
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

/**
 * A gRPC step as its endpoint sees it (runner/endpoint_table.ts): named by `label`, else its method;
 * two steps of one name with other messages or metadata are different requests pooled under it.
 */
export function grpcEndpointSpec(step: GrpcStep, label?: string): RequestSpec {
  return {
    method: "POST",
    path: `/${step.call}`,
    headers: Object.entries(step.metadata),
    body: new TextEncoder().encode(JSON.stringify(step.message)),
    weight: 1,
    name: label ?? step.call,
  };
}

/**
 * What gRPC runs take of flows and scripts: flows whose every call is a gRPC step (no HTTP request or
 * ws step: the run's answers are judged as gRPC's), with the schema they call by; no script. gRPC steps
 * need a gRPC run.
 */
export function grpcFlowIssues(c: {
  grpc?: { schema?: Uint8Array; reflect?: true; call?: unknown };
  flows?: readonly { steps: readonly object[] }[];
  script?: unknown;
}): Issue[] {
  const issues: Issue[] = [];
  c.flows?.forEach((flow, f) =>
    flow.steps.forEach((step, k) => {
      const at = ["flows", f, "steps", k];
      if (c.grpc === undefined && "grpc" in step) {
        issues.push({
          path: [...at, "grpc"],
          message: "a gRPC step needs a gRPC run: add grpc (with its schema)",
        });
      } else if (c.grpc !== undefined && ("request" in step || "ws" in step)) {
        issues.push({
          path: at,
          message: "a gRPC run's flows make gRPC calls only: write this step as grpc: {call, message}, " +
            "or run it in a load of its own",
        });
      }
    })
  );
  if (
    c.grpc !== undefined && c.grpc.schema === undefined && c.grpc.reflect === undefined &&
    c.flows?.some((f) => f.steps.some((s) => "grpc" in s))
  ) {
    issues.push({
      path: ["grpc", "schema"],
      message: "gRPC steps need the schema (a FileDescriptorSet's bytes)",
    });
  }
  if (c.grpc?.call !== undefined && c.grpc.reflect === undefined) {
    issues.push({
      path: ["grpc", "call"],
      message: "grpc.call is made from a reflected schema: add reflect: true",
    });
  }
  if (c.grpc !== undefined && c.script !== undefined) {
    issues.push({
      path: ["grpc"],
      message: "gRPC calls go as a request mix or flows' grpc steps: a script makes its own",
    });
  }
  return issues;
}
