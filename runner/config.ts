/**
 * @module
 * The validated configuration of one attack (one run of one load model against one URL): a zod
 * discriminated union on `model`, each member the common fields here plus what the model's record adds
 * (runner/load/models/: rate `phases`, throughput `ratePerSec`, count `requests`), so a field a model
 * would ignore is rejected instead of silently dropped, and each model's own checks run from its record.
 * The CLI, experiment files and presets all build this same object, and worker isolates receive it as
 * structured-cloned data. Durations are milliseconds, rates requests per second.
 *
 * Defaults live only here, in the schema. Problems come back as `ConfigError.issues` (`{path,
 * message}`), so the CLI maps paths to flags and experiment files to their keys without parsing text.
 * The list of models is the results format's `LOAD_MODELS` (type `LoadModel`); the union is checked
 * against it below.
 */
import { expandSourceAddresses } from "./source_addresses.ts";
import { isIP } from "node:net";
import { wsConfigSchema } from "./http/ws/config.ts";
import { z } from "zod";
import type { LoadModel } from "../results/mod.ts";
import { validate } from "../validation/mod.ts";
import { ConfigError } from "../validation/config_error.ts";
import { cappedMs } from "./load/models/fields.ts";
import { LOAD_MODEL_DEFS, modelDef } from "./load/models/mod.ts";
import type { LoadModelDef } from "./load/models/model.ts";
import type { CommonConfig } from "./load/executor.ts";
import { tlsOptionsSchema } from "./http/tls/options.ts";
import { steeringSchema } from "../results/schema_steering.ts";
import { hasPlaceholder } from "./http/template.ts";
import { requestSpecSchema } from "./request_spec.ts";
import { dataSpecSchema, flowFields, requestStepFields } from "./session_schema.ts";
import { scriptIssues, scriptSpecSchema } from "./script/script_spec.ts";
import { wsActionSchema, wsStepIssues } from "./ws_step_spec.ts";
import { grpcFlowIssues, grpcStepSchema } from "./grpc_step_spec.ts";

/**
 * A step of a flow: a request (named in results by `label`, else `METHOD path`), a pause, a
 * WebSocket action (runner/ws_step_spec.ts), or a gRPC call (runner/grpc_step_spec.ts; named by
 * `label`, else its method).
 */
export const flowStepSchema = z.union([
  z.strictObject({ request: requestSpecSchema, ...requestStepFields }),
  z.strictObject({ thinkMs: z.number().min(0, "think time must be >= 0") }),
  z.strictObject({ ws: wsActionSchema, ...requestStepFields }),
  z.strictObject({ grpc: grpcStepSchema, ...requestStepFields }),
]);

/** A session of requests on one connection (an Artillery scenario); arrivals pick flows by weight. */
export const flowSpecSchema = z.strictObject({
  ...flowFields,
  steps: z.array(flowStepSchema).refine(
    (steps) => steps.some((s) => "request" in s || "ws" in s || "grpc" in s),
    "a flow needs at least one request, ws or grpc step",
  ).superRefine((steps, ctx) => {
    for (const issue of wsStepIssues(steps)) ctx.addIssue({ code: "custom", ...issue });
  }),
});
export type FlowSpec = z.infer<typeof flowSpecSchema>;

/** Fields every model has. A new common field is one line here. */
const commonFields = {
  url: z.string().url("url must be an absolute http://, https://, ws:// or wss:// URL").refine(
    (u) => /^(https?|wss?):\/\//.test(u),
    "url must start with http://, https://, ws:// or wss://",
  ),
  /** WebSocket (a ws:// or wss:// url): the messages and what each connection does (runner/http/ws/). */
  ws: wsConfigSchema.optional(),
  requestMix: z.array(requestSpecSchema).min(1).prefault([{}]),
  /**
   * Sessions instead of single requests (not with a request mix of your own; not the throughput
   * model): each arrival (open pacing) or each turn of a connection (closed) runs one session of a
   * flow picked by weight. The count model's `requests` then counts sessions.
   */
  flows: z.array(flowSpecSchema).min(1).optional(),
  /**
   * A session script instead of requests or flows (runner/script/): each arrival (open) or each turn of
   * a connection (closed) calls its default export once. The count model's `requests` counts sessions.
   */
  script: scriptSpecSchema.optional(),
  /** One row per arrival (a request of the mix or a session) fills the requests' `{{ column }}`. */
  data: dataSpecSchema.optional(),
  /** A cookie jar per session (flows only): absent means on for flows. */
  cookies: z.boolean().optional(),
  /**
   * `keep-alive`: arrivals reuse idle connections. `per-arrival`: each arrival (a session, or a single
   * request without flows) opens its own connection and closes it after, as Artillery does per user.
   */
  connection: z.enum(["keep-alive", "per-arrival"]).default("keep-alive"),
  timeoutMs: cappedMs("timeout").positive("timeout must be > 0").default(10_000),
  /** Cap of one response head (status line, headers, interim 1xx heads); a bigger one is a `parse` error. */
  maxHeaderBytes: z.number().int().min(1024, "max header bytes must be >= 1024").default(64 * 1024),
  pipelining: z.number().int().min(1, "pipelining must be >= 1").max(256).default(1),
  /**
   * Socket transport, chosen once per run and recorded in results: `deno` (Deno.connect), `epoll` (the
   * Linux fast path over libc through FFI, https: through the system's OpenSSL; falls back to deno
   * with the reason recorded), `auto` (epoll wherever it can run, except a verified https: run
   * without a client certificate, which stays on Deno.startTls; else deno; see docs/TLS.md),
   * `io_uring` (experimental: plain-TCP closed models through one ring per worker; else epoll, the
   * reason recorded).
   */
  transport: z.enum(["auto", "epoll", "deno", "io_uring"]).default("auto"),
  /**
   * Local addresses each connection is bound to in turn before it connects (runner/source_addresses.ts):
   * past the ~28,000 local ports one address has for one destination. Epoll transport only.
   */
  sourceAddresses: z.union([z.string(), z.array(z.string())]).transform((v, ctx) => {
    const out = expandSourceAddresses(v);
    if (!("problem" in out)) return out;
    ctx.addIssue({ code: "custom", message: `source addresses: ${out.problem}` });
    return z.NEVER;
  }).optional(),
  /**
   * HTTP version: `http1`; `h2` (HTTP/2 over TLS by ALPN; on an http: URL, h2c with prior knowledge);
   * `h2c` (cleartext HTTP/2 with prior knowledge, http: only); `auto` (ALPN's choice on https: asked
   * once before the run; HTTP/1.1 on http:). Recorded per run with what was used.
   */
  protocol: z.enum(["http1", "h2", "h2c", "auto"]).default("http1"),
  /**
   * gRPC (runner/http/grpc/): the mix's requests are calls (POSTs of length-prefixed messages, encoded
   * before the run from the schema), their answers judged by gRPC's status; over h2 or h2c.
   */
  grpc: z.strictObject({
    /** The cap of one received message, bytes (grpc-go's 4 MiB unless set). */
    maxReceiveBytes: z.number().int().min(1, "max receive bytes must be >= 1").max(0x7fff_ffff)
      .default(4 * 1024 * 1024),
    /** The schema as a FileDescriptorSet's bytes: what the flows' gRPC steps call and read replies by. */
    schema: z.instanceof(Uint8Array).optional(),
    /**
     * The schema is the server's, asked of its reflection service when the run starts (grpc/
     * reflected_run.ts): it fills `schema`, and `call` (then) becomes the request mix.
     */
    reflect: z.literal(true).optional(),
    /** With `reflect`: the one call the run makes, made from the reflected schema. */
    call: grpcStepSchema.optional(),
  }).optional(),
  /** HTTP/2: concurrent streams per connection (h2load's `-m`). */
  streams: z.number().int().min(1, "streams must be >= 1").max(1000, "streams must be <= 1000").default(1),
  /** HTTP/2: the receive windows advertised (each stream's and the connection's), bytes. */
  h2WindowBytes: z.number().int().min(65_535, "h2 window must be >= 65535 bytes")
    .max(0x7fff_ffff, "h2 window must be < 2 GiB").default(16 * 1024 * 1024),
  /** TLS options (runner/http/tls/options.ts); `connectTo` applies to http: too. */
  tls: tlsOptionsSchema.optional(),
  workers: z.number().int().min(1, "workers must be >= 1").max(64).default(1),
  intervalMs: z.number().min(10, "interval must be >= 10ms").default(250),
  /** Keep each interval's encoded histogram in results (exact warm-up cuts, per-phase percentiles). */
  intervalHistograms: z.boolean().default(true),
  warmupMs: cappedMs("warm-up").min(0, "warm-up must be >= 0").default(0),
  /**
   * Before t0, bring the generator's own hot path to optimized code against an in-process loopback
   * sink (a short burst, never the target). Off: the first requests run on cold code.
   */
  generatorWarmup: z.boolean().default(true),
  /** Open models: a send later than this is dropped (counted) instead of sent. */
  lateBoundMs: cappedMs("late bound").positive().default(1_000),
  /** Time given to in-flight requests after the end before they are counted as timeouts. */
  gracefulStopMs: cappedMs("graceful stop").min(0).default(2_000),
  logFile: z.string().optional(),
  /**
   * A recorded schedule replayed (`loadlab run --replay`): the changes a steered run had, each applied at
   * its instant as it was live (results/schema_steering.ts).
   */
  steering: steeringSchema.optional(),
  /**
   * This generator's execution segment when one load is split over several machines (k6's execution
   * segments): `index` of `count`, from 0. Open models take every `count`-th send of the one schedule
   * (send j goes to segment j mod count), closed ones an even share of the connections and the count,
   * so the segments together are the configured load, not N copies of it. Absent: the whole load.
   */
  segment: z.strictObject({
    index: z.number().int().min(0, "segment index must be >= 0"),
    count: z.number().int().min(1, "segment count must be >= 1").max(10_000),
  }).refine((s) => s.index < s.count, { message: "segment index must be below the count", path: ["index"] })
    .optional(),
  /**
   * Wall-clock instant (ms since the epoch) at which the schedule starts, warm-up included, so the
   * segments on several machines line up; absent: as soon as the workers are ready.
   */
  startAtEpochMs: z.number().int().positive().optional(),
};

/** One model's member of the union: the common fields and what its record adds (runner/load/models/). */
function member<M extends LoadModel, F extends z.ZodRawShape>(def: LoadModelDef<M, F>) {
  return z.strictObject({ model: z.literal(def.model), ...commonFields, ...def.fields });
}

export const attackConfigSchema = z.discriminatedUnion("model", [
  member(LOAD_MODEL_DEFS.connections),
  member(LOAD_MODEL_DEFS.rate),
  member(LOAD_MODEL_DEFS.throughput),
  member(LOAD_MODEL_DEFS.count),
  member(LOAD_MODEL_DEFS["ramping-connections"]),
]).superRefine((c, ctx) => {
  // The model's own checks across its fields (runner/load/models/), then what every model shares.
  for (const issue of modelDef(c.model).check(c)) ctx.addIssue({ code: "custom", ...issue });
  if (c.flows) { for (const issue of flowIssues(c)) ctx.addIssue({ code: "custom", ...issue }); }
  if (c.script) { for (const issue of scriptIssues(c)) ctx.addIssue({ code: "custom", ...issue }); }
  for (const issue of dataIssues(c)) ctx.addIssue({ code: "custom", ...issue });
  for (const issue of protocolIssues(c)) ctx.addIssue({ code: "custom", ...issue });
  for (const issue of sourceIssues(c)) ctx.addIssue({ code: "custom", ...issue });
});

/**
 * What flows exclude: a model they cannot drive (its record says why), a request mix of one's own,
 * pipelining; with ws steps, a ws: URL or a protocol other than HTTP/1.1.
 */
function flowIssues(c: AttackConfig): Issue[] {
  const issues: Issue[] = [];
  const noFlows = modelDef(c.model).noFlows;
  if (noFlows !== undefined) issues.push({ path: ["flows"], message: noFlows });
  // The mix defaults to one `GET /`; anything else was given, and flows would silently ignore it.
  const [only, ...more] = c.requestMix;
  const defaultMix = more.length === 0 && only.method === "GET" && only.path === "/" &&
    only.headers.length === 0 && only.body === undefined;
  if (!defaultMix) {
    issues.push({
      path: ["requestMix"],
      message: "flows and a request mix exclude each other: put the requests in the flows' steps",
    });
  }
  if (c.pipelining > 1) {
    issues.push({ path: ["pipelining"], message: "flows send one request at a time: pipelining must be 1" });
  }
  // A session's WebSocket is an HTTP/1.1 Upgrade on the target's origin, beside its HTTP requests.
  c.flows?.forEach((flow, f) => {
    const k = flow.steps.findIndex((s) => "ws" in s);
    if (k < 0) return;
    const why = /^wss?:/.test(c.url)
      ? "ws steps open their WebSocket from an http:// or https:// target; use its http(s) URL"
      : c.protocol !== "http1"
      ? `ws steps open their WebSocket with an HTTP/1.1 Upgrade: use protocol http1, not ${c.protocol}`
      : undefined;
    if (why !== undefined) {
      issues.push({ path: ["flows", f, "steps", k, "ws"], message: why });
    }
  });
  return issues;
}

/**
 * What data sources exclude: pipelining (one row per request, and a batch could run out midway); and
 * cookies without flows (a request mix has no sessions to keep a jar for).
 */
function dataIssues(c: AttackConfig): Issue[] {
  const issues: Issue[] = [];
  if (c.cookies === true && c.flows === undefined && c.script === undefined) {
    issues.push({
      path: ["cookies"],
      message: "cookies are kept per session: they need flows (a request mix keeps none)",
    });
  }
  if (c.data !== undefined && c.pipelining > 1) {
    issues.push({
      path: ["pipelining"],
      message: "a load with data sends one request per row: pipelining must be 1",
    });
  }
  return issues;
}

/** A cross-field problem: the path of the field to change, and why. */
type Issue = { path: Array<string | number>; message: string };

/**
 * Source addresses the run cannot dial from: on the deno transport (it cannot bind), or of another family
 * than the target's address (an IPv6 source cannot reach 127.0.0.1).
 */
function sourceIssues(c: AttackConfig): Issue[] {
  const sources = c.sourceAddresses;
  if (!sources) return [];
  const path = ["sourceAddresses"];
  if (c.transport === "deno") {
    return [{
      path,
      message: "source addresses need the epoll transport (deno cannot bind): drop transport deno",
    }];
  }
  const host = isIP(new URL(c.url).hostname.replace(/^\[(.*)\]$/, "$1"));
  const families = new Set(sources.map((ip) => isIP(ip)));
  if (families.size > 1 || (host !== 0 && !families.has(host))) {
    const want = host === 0 ? "of one family" : `IPv${host}, as the target's address is`;
    return [{ path, message: `source addresses must all be ${want}` }];
  }
  return [];
}

/**
 * What HTTP/2 excludes (for now): flows, pipelining, placeholders in header names; streams on a
 * per-arrival connection (one request each); h2c on https:. Over HTTP/1.1, streams.
 */
function protocolIssues(c: AttackConfig): Issue[] {
  if (c.grpc !== undefined && (c.protocol === "http1" || c.protocol === "auto")) {
    return [{
      path: ["protocol"],
      message: "gRPC runs over HTTP/2: use protocol h2 (https:) or h2c (http:)",
    }];
  }
  const grpcIssues = grpcFlowIssues(c);
  if (grpcIssues.length > 0) return grpcIssues;
  if (c.protocol === "http1") {
    return c.streams > 1
      ? [{ path: ["streams"], message: "streams apply to HTTP/2: add protocol h2 (--h2), or drop streams" }]
      : [];
  }
  const issues: Issue[] = [];
  if (c.protocol === "auto" && c.url.startsWith("http://") && c.streams > 1) {
    // No TLS, no ALPN: auto speaks HTTP/1.1 there, and the streams would be dropped without a word.
    issues.push({
      path: ["streams"],
      message:
        "protocol auto on an http:// URL speaks HTTP/1.1: use protocol h2c for HTTP/2, or drop streams",
    });
  }
  if (c.protocol === "h2c" && c.url.startsWith("https://")) {
    issues.push({
      path: ["protocol"],
      message: "h2c is cleartext: use an http:// URL, or protocol h2 for https://",
    });
  }
  const what = `protocol ${c.protocol}`;
  issues.push(...headerNamePlaceholders(c, what));
  if (c.pipelining > 1) {
    issues.push({
      path: ["pipelining"],
      message: `${what} sends concurrent streams: use streams, not pipelining`,
    });
  }
  if (c.connection === "per-arrival" && c.streams > 1) {
    issues.push({
      path: ["streams"],
      message: "a per-arrival connection carries its arrival's one request on one stream: " +
        "drop streams, or keep connections alive",
    });
  }
  return issues;
}

/**
 * Header names with a placeholder, in the request mix and the flows' steps: an h2 header name must be
 * a lower-case token, checked once when the request is encoded (h2/request.ts).
 */
function headerNamePlaceholders(c: AttackConfig, what: string): Issue[] {
  const issues: Issue[] = [];
  const issue = (path: Array<string | number>, name: string) =>
    issues.push({
      path,
      message:
        `header name "${name}" has a placeholder: over ${what} only values, paths and bodies take them`,
    });
  c.requestMix.forEach((r, k) => {
    const name = r.headers.find(([n]) => hasPlaceholder(n))?.[0];
    if (name !== undefined) issue(["requestMix", k, "headers"], name);
  });
  c.flows?.forEach((flow, f) =>
    flow.steps.forEach((step, k) => {
      const name = "request" in step ? step.request.headers.find(([n]) => hasPlaceholder(n))?.[0] : undefined;
      if (name !== undefined) issue(["flows", f, "steps", k, "request", "headers"], name);
    })
  );
  return issues;
}

/** What callers pass in; defaults are filled by `parseAttackConfig`. */
export type AttackConfigInput = z.input<typeof attackConfigSchema>;
export type AttackConfig = z.output<typeof attackConfigSchema>;
/** The config of one model, e.g. `AttackConfigOf<"rate">` has `phases`. */
export type AttackConfigOf<M extends LoadModel> = Extract<AttackConfig, { model: M }>;
/** The model-specific part of an input: `model` and what its member adds to the common fields. */
export type ModelInput = AttackConfigInput extends infer T
  ? T extends unknown ? Omit<T, keyof typeof commonFields>
  : never
  : never;
/** An input without its URL (experiment plans: request paths relative to a target started later). */
export type RelativeAttackInput = AttackConfigInput extends infer T
  ? T extends unknown ? Omit<T, "url"> : never
  : never;

// The union covers exactly the models of the results format: a model added to LOAD_MODELS without a
// member here (or the reverse) fails type checking.
const coversEveryModel: [LoadModel] extends [AttackConfig["model"]]
  ? [AttackConfig["model"]] extends [LoadModel] ? true : false
  : false = true;
void coversEveryModel;
// The models' rules and the shared runtime read these common fields (runner/load/executor.ts).
const hasCommonFields: AttackConfig extends CommonConfig ? true : false = true;
void hasCommonFields;

/** Validates and fills defaults; throws `ConfigError` listing every problem. */
export function parseAttackConfig(input: AttackConfigInput): AttackConfig {
  const parsed = validate(attackConfigSchema, input);
  if (parsed.ok) return parsed.data;
  throw new ConfigError(parsed.issues, { cause: parsed.error });
}

/** The measured duration the run aims for: phases' sum, the duration, or none (Infinity) for `count`. */
export function measuredDurationMs(c: AttackConfig): number {
  return modelDef(c.model).measuredDurationMs(c);
}

/** Where the load stops at the latest, past its measured start: its duration, or a count's max duration. */
export function loadBoundMs(c: AttackConfig): number {
  const def = modelDef(c.model);
  return Math.min(def.measuredDurationMs(c), def.maxDurationMs?.(c) ?? Infinity);
}
