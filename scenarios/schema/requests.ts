/**
 * @module
 * The small shared parts of experiment files: durations, names, requests and flows.
 */
import { defined } from "../../validation/defined.ts";
import { z } from "zod";
import { durationMsOf, durationProblem } from "../../validation/duration.ts";
import { flowFields, requestStepFields } from "../../runner/session_schema.ts";
import { wsActionFields, wsActionRules } from "../../runner/ws_step_spec.ts";
import { grpcStepFields } from "../../runner/grpc_step_spec.ts";
import { splitCall } from "../../runner/http/grpc/call.ts";
import { type FlowSpec, flowStepIssues } from "../../runner/flow_spec.ts";
import {
  endpointNameProblem,
  headerRules,
  pathProblem,
  ruleOf,
  tagRules,
} from "../../runner/request_rules.ts";
import { customIssue, repeatsOf } from "../../validation/mod.ts";

/** How a duration is described in errors and in the JSON Schema. */
const DURATION_WORDS = 'a duration with a unit, e.g. "500ms", "10s", "1m"';

/** A duration string parsed to milliseconds. */
export const durationSchema = z.string()
  .meta({ id: "duration", expected: DURATION_WORDS, description: `${DURATION_WORDS}; "1m30s" also works` })
  .transform((text, ctx) => {
    const ms = durationMsOf(text), problem = durationProblem(text, ms);
    if (problem === undefined) return ms!;
    const is = problem.why.startsWith("has") ? "" : "is ";
    customIssue(ctx, [], `${JSON.stringify(text)} ${is}${problem.why}, e.g. "${problem.eg}"`);
    return z.NEVER;
  });

/** Target and load names: they become parts of run names (`target/load/param=value#2`). */
export const nameSchema = z.string().superRefine((name, ctx) => {
  const problem = nameProblem(name);
  if (problem) customIssue(ctx, [], problem);
});

/** Names Windows keeps for devices, with or without an extension (`NUL.txt`); refused everywhere alike. */
const RESERVED_NAME = /^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3])(\..*)?$/i;

/** The longest target, load, data or experiment name: each becomes a folder or part of a file name. */
const MAX_NAME_CHARS = 100;

/** Why `name` cannot name a folder or file: too long, not letters, digits, `._-`, `.`/`..`, a device name. */
export function nameProblem(name: string): string | undefined {
  if (name.length > MAX_NAME_CHARS) {
    return `"${name.slice(0, 12)}…" (${name.length} characters) is too long: it becomes a folder under ` +
      `out/, and filesystems refuse names over 255 bytes; use at most ${MAX_NAME_CHARS} characters`;
  }
  if (!/^[A-Za-z0-9._-]+$/.test(name)) {
    return "names use letters, digits, '.', '_' and '-' (they become part of run names and folders)";
  }
  if (/^\.+$/.test(name)) {
    return `"${name}" is a path segment, not a name (it becomes a folder under out/); use letters or digits, e.g. "api"`;
  }
  if (name.endsWith(".")) {
    return `"${name}" ends with '.', which some filesystems drop; remove the trailing '.'`;
  }
  if (RESERVED_NAME.test(name)) {
    return `"${name}" is a device name on Windows and cannot be a folder there; rename it, e.g. "${
      name.replace(/^[^.]*/, (stem) => stem + "-1")
    }"`;
  }
  return undefined;
}

const METHOD = /^[A-Za-z]+$/;
/** A path; one may start with a placeholder (a captured `Location`, say): `{{ next }}`. */
const pathSchema = z.string().refine(
  (p) => p.startsWith("/") || p.startsWith("{{"),
  "path must start with '/' (or a {{ placeholder }})",
).superRefine(ruleOf(pathProblem));

const requestFields = {
  path: pathSchema,
  /** Merged into the path's query string. */
  query: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  /** Names are tokens, values one line (runner/request_rules.ts): checked here, never by a worker. */
  headers: z.record(z.string(), z.string()).superRefine((h, ctx) =>
    headerRules(Object.entries(h), ctx, (name) => [name])
  ).optional(),
  /** Sent as JSON with `content-type: application/json` (unless a header sets it). */
  json: z.unknown().optional(),
  /** Sent as is (UTF-8). */
  body: z.string().optional(),
  weight: z.number().positive("weight must be > 0").optional(),
  /** The endpoint its numbers are reported under (default: METHOD PATH as written; a step's label). */
  name: z.string().trim().min(1, "a request name must not be empty").superRefine(ruleOf(endpointNameProblem))
    .optional(),
  /** User tags a threshold may select by: `p99{tier:db}<50ms`. */
  tags: z.record(z.string(), z.string()).superRefine(tagRules).optional(),
};

const requestObjectSchema = z.strictObject({
  method: z.string().regex(METHOD, "method must be letters, e.g. GET or POST").optional(),
  ...requestFields,
});

/** A request as the plan reads it: method upper-case and always present. */
export type FileRequest = Omit<z.output<typeof requestObjectSchema>, "method"> & { method: string };

function oneBody(request: { json?: unknown; body?: string }, ctx: z.RefinementCtx): void {
  if (request.json !== undefined && request.body !== undefined) {
    customIssue(ctx, ["body"], "give json or body, not both");
  }
}

/** `"/json"` or `"POST /login"` -> a request object. */
function fromShorthand(text: string, ctx: z.RefinementCtx): FileRequest {
  const words = text.trim().split(/\s+/);
  const [method, path] = words.length === 1 ? ["GET", words[0]] : words;
  if (words.length > 2 || !METHOD.test(method) || !(path?.startsWith("/") || path?.startsWith("{{"))) {
    customIssue(
      ctx,
      [],
      `${
        JSON.stringify(text)
      } is not a request; write "PATH" or "METHOD PATH", e.g. "/json" or "POST /login"`,
    );
    return z.NEVER;
  }
  return { method: method.toUpperCase(), path };
}

/** One request of a mix: `"/json"`, `"POST /login"` or an object with method, path, query, ... */
const requestSchema = z.union([z.string(), requestObjectSchema])
  .meta({ id: "request", expected: 'a request: "PATH", "METHOD PATH" or an object with a path' })
  .superRefine((r, ctx) => {
    if (typeof r !== "string") oneBody(r, ctx);
  })
  .transform((r, ctx): FileRequest =>
    typeof r === "string" ? fromShorthand(r, ctx) : { ...r, method: (r.method ?? "GET").toUpperCase() }
  );

export const requestListSchema = z.array(requestSchema).min(1, "needs at least one request");

const FLOW_METHODS = ["get", "post", "put", "patch", "delete", "head"] as const;

/** A step's request: a path, or an object without `method` (the step's key is the method). */
const stepRequestSchema = z.union([pathSchema, z.strictObject(requestFields)]);

/** A `ws:` step as a file writes it (runner/ws_step_spec.ts has its rules). */
const wsStepFileSchema = z.strictObject({
  ...wsActionFields,
  send: z.union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())]).optional(),
  close: z.union([z.literal(true), wsActionFields.close.unwrap()]).optional(),
  timeout: durationSchema.optional(),
}).meta({ id: "wsStep" }).superRefine(wsActionRules).transform(({ timeout, send, close, ...rest }) => ({
  ...rest,
  ...(send === undefined ? {} : { send: typeof send === "string" ? send : JSON.stringify(send) }),
  ...(close === undefined ? {} : { close: close === true ? 1000 : close }),
  ...defined({ timeoutMs: timeout }),
}));

/** `grpc:` step: call (`pkg.Service/Method` or ghz's `pkg.Service.Method`), proto3 JSON message, metadata. */
const grpcStepFileSchema = z.strictObject({
  call: z.string().transform((call, ctx) => {
    const parts = splitCall(call);
    if (parts !== null) return `${parts[0]}/${parts[1]}`;
    customIssue(ctx, [], "call is pkg.Service/Method, e.g. helloworld.Greeter/SayHello");
    return z.NEVER;
  }),
  ...grpcStepFields,
}).meta({ id: "grpcStep" });

const stepObjectSchema = z.strictObject({
  ws: wsStepFileSchema.optional(),
  grpc: grpcStepFileSchema.optional(),
  ...Object.fromEntries(FLOW_METHODS.map((m) => [m, stepRequestSchema.optional()])) as Record<
    (typeof FLOW_METHODS)[number],
    z.ZodOptional<typeof stepRequestSchema>
  >,
  think: durationSchema.optional(),
  ...requestStepFields,
});

/** A step of the attack config (runner/config.ts), whose type a file's step takes. */
type EngineStep = FlowSpec["steps"][number];

/** A flow step as the plan reads it: the file's request, its path still relative. */
type FileFlowStep =
  | Omit<Extract<EngineStep, { request: unknown }>, "request"> & { request: FileRequest }
  | Extract<EngineStep, { thinkMs: number }>
  | Extract<EngineStep, { ws: unknown }>
  | Extract<EngineStep, { grpc: unknown }>;

/** One step: `{get: /home}`, `{post: {...}}`, `{think: 500ms}`, `{ws: {...}}`, `{grpc: {call, message}}`. */
const flowStepSchema = stepObjectSchema.transform((step, ctx): FileFlowStep => {
  const given = [...FLOW_METHODS, "think" as const, "ws" as const, "grpc" as const].filter((k) =>
    step[k] !== undefined
  );
  if (
    step.think !== undefined &&
    (step.capture || step.expect || (step.maxKeptBytes ?? step.ifTrue ?? step.maxRedirects) !== undefined)
  ) {
    customIssue(
      ctx,
      [],
      "capture, expect, maxKeptBytes, maxRedirects and ifTrue go with a request, not think",
    );
    return z.NEVER;
  }
  if (given.length !== 1) {
    customIssue(
      ctx,
      [],
      given.length === 0
        ? "a step needs one of get, post, put, patch, delete, head, think, ws or grpc"
        : `a step does one thing; found ${given.join(" and ")}`,
    );
    return z.NEVER;
  }
  if (step.think !== undefined) return { thinkMs: step.think };
  const { label, capture, expect, maxKeptBytes, ifTrue, maxRedirects } = step;
  const extras = defined({ label, capture, expect, maxKeptBytes, ifTrue, maxRedirects });
  if (step.ws !== undefined) return { ws: step.ws, ...extras };
  if (step.grpc !== undefined) return { grpc: step.grpc, ...extras };
  const method = given[0];
  const value = step[method as (typeof FLOW_METHODS)[number]]!;
  const request = typeof value === "string" ? { path: value } : value;
  if (typeof value !== "string") oneBody(value, ctx);
  return { request: { ...request, method: method.toUpperCase() }, ...extras };
});

/** A session: its steps run one after another on one connection. */
const flowSchema = z.strictObject({
  ...flowFields,
  /** The data source (top-level `data:`) whose rows fill this flow's sessions, one row each. */
  data: z.string().min(1).optional(),
  steps: z.array(flowStepSchema).min(1, "a flow needs at least one step").superRefine(flowStepIssues),
}).meta({ id: "flow" });
export type FileFlow = z.output<typeof flowSchema>;

/** A load's flows, each named apart: results list flows by name. */
export const flowListSchema = z.array(flowSchema).min(1, "needs at least one flow").superRefine(
  (flows, ctx) => {
    for (const [earlier, i] of repeatsOf(flows, (flow) => flow.name)) {
      const name = JSON.stringify(flows[i].name);
      customIssue(
        ctx,
        [i, "name"],
        `${name} is the name of flows[${earlier}] already: give each flow its own`,
      );
    }
  },
);
