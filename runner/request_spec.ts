/**
 * @module
 * A mix request as the config states it, kept from config.ts so encoders import no config union.
 */
import { z } from "zod";
import { endpointNameProblem, headerRules, pathProblem, ruleOf, tagRules } from "./request_rules.ts";
import { type GrpcBodySpec, isGrpcBodySpec } from "./http/grpc_body_spec.ts";

/** One request of a mix; `weight` decides how often it is picked relative to the others. */
export const requestSpecSchema = z.object({
  method: z.string().regex(/^[A-Z]+$/, "method must be upper-case letters, e.g. GET or POST")
    .default("GET"),
  /** Path with query, e.g. `/json?x=1`. Joined to the URL's origin. */
  path: z.string().refine((p) => p.startsWith("/") || p.startsWith("{{"), "path must start with '/'")
    .superRefine(ruleOf(pathProblem)).default("/"),
  /** Names are tokens, values one line (request_rules.ts): a config error, not a worker's crash. */
  headers: z.array(z.tuple([z.string().min(1), z.string()]))
    .superRefine((h, ctx) => headerRules(h, ctx, (_, k, part) => [k, part])).default([]),
  body: z.instanceof(Uint8Array).optional(),
  /** A gRPC call's messages with placeholders, filled and encoded per call instead of a `body`. */
  grpcMessage: z.custom<GrpcBodySpec>(isGrpcBodySpec, "a gRPC message template").optional(),
  /** A gRPC call of a method that answers one message: a second one breaks the answer. */
  grpcUnary: z.boolean().optional(),
  weight: z.number().positive("weight must be > 0").default(1),
  /** The endpoint its numbers are reported under; default its method and path as written. */
  name: z.string().trim().min(1, "a request name must not be empty")
    .max(200, "a request name is at most 200 characters").superRefine(ruleOf(endpointNameProblem)).optional(),
  /** User tags a threshold may select by (`p99{tier:db}<50ms`), as k6's request tags. */
  tags: z.record(z.string(), z.string()).superRefine(tagRules)
    .optional(),
});
export type RequestSpec = z.infer<typeof requestSpecSchema>;
