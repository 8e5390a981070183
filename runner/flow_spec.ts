/**
 * @module
 * The schema of a flow: a session of steps on one connection (an Artillery scenario), each a request, a
 * pause, a WebSocket action or a gRPC call, picked by weight per arrival.
 */
import { z } from "zod";
import { requestSpecSchema } from "./request_spec.ts";
import { flowFields, requestStepFields } from "./session_schema.ts";
import { wsActionSchema, wsStepIssues } from "./ws_step_spec.ts";
import { grpcStepSchema } from "./grpc_step_spec.ts";

/** A step of a flow: a request, a pause, a WebSocket action or a gRPC call. */
const flowStepSchema = z.union([
  z.strictObject({ request: requestSpecSchema, ...requestStepFields }),
  z.strictObject({ thinkMs: z.number().min(0, "think time must be >= 0") }),
  z.strictObject({ ws: wsActionSchema, ...requestStepFields }),
  z.strictObject({ grpc: grpcStepSchema, ...requestStepFields }),
]);

/** Most steps one flow may have: longer is a generated file, whose checks and plan cost in proportion. */
const MAX_FLOW_STEPS = 10_000;

/** The problem of a flow of `count` steps: over `MAX_FLOW_STEPS`, with the fix. */
export function flowLengthProblem(count: number): string | undefined {
  if (count <= MAX_FLOW_STEPS) return undefined;
  return `a flow has at most ${MAX_FLOW_STEPS.toLocaleString("en-US")} steps, found ` +
    `${count.toLocaleString("en-US")}: write the part that repeats once (a session runs its flow again ` +
    "until its load ends), or split it into flows";
}

/** A session of requests on one connection (an Artillery scenario); arrivals pick flows by weight. */
export const flowSpecSchema = z.strictObject({
  ...flowFields,
  steps: z.array(flowStepSchema).refine(
    (steps) => steps.some((s) => "request" in s || "ws" in s || "grpc" in s),
    "a flow needs at least one request, ws or grpc step",
  ).superRefine((steps, ctx) => {
    const tooLong = flowLengthProblem(steps.length);
    if (tooLong !== undefined) return void ctx.addIssue({ code: "custom", message: tooLong });
    for (const issue of wsStepIssues(steps)) ctx.addIssue({ code: "custom", ...issue });
  }),
});
export type FlowSpec = z.infer<typeof flowSpecSchema>;
