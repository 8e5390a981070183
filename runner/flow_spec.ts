/**
 * @module
 * A flow's schema: steps (request, pause, ws, gRPC call) on one connection, picked by weight.
 */
import { z } from "zod";
import { requestSpecSchema } from "./request_spec.ts";
import { flowFields, requestStepFields } from "./session_schema.ts";
import { wsActionSchema, wsStepIssues } from "./ws_step_spec.ts";
import { grpcStepSchema } from "./grpc_step_spec.ts";
import { customIssue } from "../validation/mod.ts";

/** A step of a flow: a request, a pause, a WebSocket action or a gRPC call. */
const flowStepSchema = z.union([
  z.strictObject({ request: requestSpecSchema, ...requestStepFields }),
  z.strictObject({ thinkMs: z.number().min(0, "think time must be >= 0") }),
  z.strictObject({ ws: wsActionSchema, ...requestStepFields }),
  z.strictObject({ grpc: grpcStepSchema, ...requestStepFields }),
]);

/** Most steps one flow may have: longer is a generated file, whose checks and plan cost in proportion. */
const MAX_FLOW_STEPS = 10_000;

/** What a flow's steps may not be, in the config and in an experiment file: too many, or a bad ws step. */
export function flowStepIssues(steps: ReadonlyArray<object>, ctx: z.RefinementCtx): void {
  if (steps.length > MAX_FLOW_STEPS) {
    const message = `a flow has at most ${MAX_FLOW_STEPS.toLocaleString("en-US")} steps, found ` +
      `${steps.length.toLocaleString("en-US")}: write the part that repeats once (a session runs its flow ` +
      "again until its load ends), or split it into flows";
    return void customIssue(ctx, [], message);
  }
  steps.forEach((s, k) => {
    if ("ws" in s && "ifTrue" in s) {
      customIssue(ctx, [k, "ifTrue"], "ifTrue goes with a request step, not ws");
    }
  });
  for (const issue of wsStepIssues(steps)) ctx.addIssue({ code: "custom", ...issue });
}

/** A session of requests on one connection (an Artillery scenario); arrivals pick flows by weight. */
export const flowSpecSchema = z.strictObject({
  ...flowFields,
  steps: z.array(flowStepSchema).refine(
    (steps) => steps.some((s) => "request" in s || "ws" in s || "grpc" in s),
    "a flow needs at least one request, ws or grpc step",
  ).superRefine(flowStepIssues),
});
export type FlowSpec = z.infer<typeof flowSpecSchema>;
