/**
 * @module
 * The validated configuration of one attack (one run of one load model against one URL): a zod
 * discriminated union on `model`, so each model states its own required fields once (rate: `phases`,
 * throughput: `ratePerSec`, count: `requests`) and a field a model would ignore is rejected instead of
 * silently dropped. The CLI, experiment files and presets all build this same object, and worker
 * isolates receive it as structured-cloned data. Durations are milliseconds, rates requests per second.
 *
 * Defaults live only here, in the schema. Problems come back as `ConfigError.issues` (`{path,
 * message}`), so the CLI maps paths to flags and experiment files to their keys without parsing text.
 * The list of models is the results format's `LOAD_MODELS` (type `LoadModel`); the union is checked
 * against it below.
 */
import { z } from "zod";
import type { LoadModel } from "../results/mod.ts";
import { validate } from "../validation/mod.ts";
import { ConfigError } from "../validation/config_error.ts";
import { MAX_DURATION_MS, MAX_DURATION_WORDS } from "../validation/duration.ts";
import { tlsOptionsSchema } from "./http/tls/options.ts";
import { hasPlaceholder } from "./http/template.ts";
import { headerRules, pathProblem, ruleOf } from "./request_rules.ts";
import { dataSpecSchema, flowFields, requestStepFields } from "./session_schema.ts";
import { scriptIssues, scriptSpecSchema } from "./script/script_spec.ts";

/** One request of a mix; `weight` decides how often it is picked relative to the others. */
export const requestSpecSchema = z.object({
  method: z.string().regex(/^[A-Z]+$/, "method must be upper-case letters, e.g. GET or POST")
    .default("GET"),
  /** Path with query, e.g. `/json?x=1`. Joined to the URL's origin. */
  path: z.string().refine((p) => p.startsWith("/") || p.startsWith("{{"), "path must start with '/'")
    .superRefine(ruleOf(pathProblem)).default("/"),
  /** Names are tokens, values one line (request_rules.ts): a bad one is a config error, not a worker's crash. */
  headers: z.array(z.tuple([z.string().min(1), z.string()]))
    .superRefine((h, ctx) => headerRules(h, ctx, (_, k, part) => [k, part])).default([]),
  body: z.instanceof(Uint8Array).optional(),
  weight: z.number().positive("weight must be > 0").default(1),
});
export type RequestSpec = z.infer<typeof requestSpecSchema>;

/**
 * The highest rate of one whole load (all workers and segments together), requests per second: ten
 * times what one generator reaches on loopback. Above it a rate is a typo, and its schedule would
 * only be dropped sends.
 */
export const MAX_RATE_PER_SEC = 10_000_000;
const RATE_CAP = `at most ${MAX_RATE_PER_SEC.toLocaleString("en-US")} requests per second (one load's cap)`;

/** A duration in ms, capped at `MAX_DURATION_MS` (7 days). */
const cappedMs = (what: string) => z.number().max(MAX_DURATION_MS, `${what} must be ${MAX_DURATION_WORDS}`);

/** One arrival-rate phase (Artillery's arrivalRate / rampTo); rate 0 is a pause. */
export const phaseSchema = z.object({
  durationMs: cappedMs("phase duration").positive("phase duration must be > 0"),
  ratePerSec: z.number().min(0, "rate must be >= 0").max(MAX_RATE_PER_SEC, `rate must be ${RATE_CAP}`),
  rampToPerSec: z.number().min(0, "rampTo must be >= 0").max(MAX_RATE_PER_SEC, `rampTo must be ${RATE_CAP}`)
    .optional(),
  name: z.string().optional(),
});
export type Phase = z.infer<typeof phaseSchema>;

/** A step of a flow: a request (named in results by `label`, else `METHOD path`), or a pause. */
export const flowStepSchema = z.union([
  z.strictObject({ request: requestSpecSchema, ...requestStepFields }),
  z.strictObject({ thinkMs: z.number().min(0, "think time must be >= 0") }),
]);

/** A session of requests on one connection (an Artillery scenario); arrivals pick flows by weight. */
export const flowSpecSchema = z.strictObject({
  ...flowFields,
  steps: z.array(flowStepSchema).refine(
    (steps) => steps.some((s) => "request" in s),
    "a flow needs at least one request step",
  ),
});
export type FlowSpec = z.infer<typeof flowSpecSchema>;

/** Measured duration of the connections and throughput models when none is given (wrk's 10 s). */
export const DEFAULT_DURATION_MS = 10_000;

/** Open pacing's default bound on connections opened on demand. */
export const DEFAULT_MAX_CONNECTIONS = 1_000;

/** Fields every model has. A new common field is one line here. */
const commonFields = {
  url: z.string().url("url must be an absolute http:// or https:// URL").refine(
    (u) => u.startsWith("http://") || u.startsWith("https://"),
    "url must start with http:// or https://",
  ),
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
   * without a client certificate, which stays on Deno.startTls; else deno; see docs/TLS.md).
   */
  transport: z.enum(["auto", "epoll", "deno"]).default("auto"),
  /**
   * HTTP version: `http1`; `h2` (HTTP/2 over TLS by ALPN; on an http: URL, h2c with prior knowledge);
   * `h2c` (cleartext HTTP/2 with prior knowledge, http: only); `auto` (ALPN's choice on https: asked
   * once before the run; HTTP/1.1 on http:). Recorded per run with what was used.
   */
  protocol: z.enum(["http1", "h2", "h2c", "auto"]).default("http1"),
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

/** Closed model and throughput model: the connections kept open for the whole run. */
const connections = z.number().int().positive("connections must be >= 1").default(10);
/** Open pacing: upper bound of connections opened on demand. */
const maxConnections = z.number().int().positive("maxConnections must be >= 1").default(
  DEFAULT_MAX_CONNECTIONS,
);
/**
 * Open pacing: connections opened before t0 (k6's preAllocatedVUs). Absent: sized by Little's law
 * from the first rate and the measured connect round trip (see runner/load/pre_connect.ts).
 */
const preConnect = z.number().int().min(0, "preConnect must be >= 0").optional();
const durationMs = cappedMs("duration").positive("duration must be > 0");
const ratePerSec = z.number().positive("rate must be > 0").max(MAX_RATE_PER_SEC, `rate must be ${RATE_CAP}`);

/** What each model adds to the common fields; keyed by `LoadModel`, so none is missing or extra. */
const modelFields = {
  connections: { connections, durationMs: durationMs.default(DEFAULT_DURATION_MS) },
  /** Open model: arrivals follow the phases; the measured duration is their sum. */
  rate: {
    phases: z.array(phaseSchema).min(1, "rate model needs at least one phase"),
    maxConnections,
    preConnect,
  },
  /** wrk2: a constant total rate over fixed connections, latency from the intended send time. */
  throughput: { ratePerSec, connections, durationMs: durationMs.default(DEFAULT_DURATION_MS) },
  /** Exactly `requests`; closed over `connections`, or open-paced at `ratePerSec` when given. */
  count: {
    /** Requests to send; with `flows`, sessions to run. */
    requests: z.number().int().positive("requests must be >= 1"),
    connections,
    ratePerSec: ratePerSec.optional(),
    maxConnections,
    /** Open-paced count only (with `ratePerSec`). */
    preConnect,
    /** An optional upper bound: the run stops at the count or at this time, whichever comes first. */
    durationMs: durationMs.optional(),
  },
} satisfies Record<LoadModel, z.ZodRawShape>;

function member<M extends LoadModel>(model: M) {
  return z.strictObject({ model: z.literal(model), ...commonFields, ...modelFields[model] });
}

export const attackConfigSchema = z.discriminatedUnion("model", [
  member("connections"),
  member("rate"),
  member("throughput"),
  member("count"),
]).superRefine((c, ctx) => {
  // A worker with no connection of its own would idle; the rate model opens them on demand.
  // Connections below 1 are already an issue of their own; comparing with them would only repeat it.
  if ("connections" in c && c.connections >= 1 && c.workers > c.connections) {
    ctx.addIssue({
      code: "custom",
      path: ["workers"],
      message: `workers (${c.workers}) must not exceed connections (${c.connections})`,
    });
  } else if (
    "connections" in c && c.segment && c.workers * c.segment.count > c.connections &&
    !(c.model === "count" && c.ratePerSec !== undefined)
  ) {
    // Every segment's every worker needs a connection of its own, or a shard would idle.
    ctx.addIssue({
      code: "custom",
      path: ["segment"],
      message: `${c.segment.count} segments of ${c.workers} worker(s) need at least ` +
        `${c.workers * c.segment.count} connections (have ${c.connections})`,
    });
  }
  if (c.flows) { for (const issue of flowIssues(c)) ctx.addIssue({ code: "custom", ...issue }); }
  if (c.script) { for (const issue of scriptIssues(c)) ctx.addIssue({ code: "custom", ...issue }); }
  for (const issue of dataIssues(c)) ctx.addIssue({ code: "custom", ...issue });
  for (const issue of protocolIssues(c)) ctx.addIssue({ code: "custom", ...issue });
  if (
    c.model === "count" && c.ratePerSec !== undefined && c.durationMs === undefined &&
    (c.requests / c.ratePerSec) * 1000 > MAX_DURATION_MS
  ) {
    ctx.addIssue({
      code: "custom",
      path: ["requests"],
      message: `${c.requests} requests at ${c.ratePerSec}/s take longer than 7 days; durations must be ` +
        `${MAX_DURATION_WORDS}: send fewer, faster, or bound the run with a duration`,
    });
  }
  if (c.model === "rate" && measuredDurationMs(c) > MAX_DURATION_MS) {
    ctx.addIssue({
      code: "custom",
      path: ["phases"],
      message: `the phases together must be ${MAX_DURATION_WORDS}`,
    });
  }
  if (c.model === "count" && c.ratePerSec === undefined && c.preConnect !== undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["preConnect"],
      message: "preConnect applies to open pacing: give the count a ratePerSec, or drop preConnect",
    });
  }
});

/** What flows exclude: the throughput model, a request mix of one's own, pipelining. */
function flowIssues(c: AttackConfig): Array<{ path: string[]; message: string }> {
  const issues: Array<{ path: string[]; message: string }> = [];
  if (c.model === "throughput") {
    issues.push({
      path: ["flows"],
      message: "flows need a rate, connections or count load: throughput spreads single requests " +
        "over fixed connections",
    });
  }
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
  return issues;
}

/**
 * What data sources exclude: pipelining (one row per request, and a batch could run out midway); and
 * cookies without flows (a request mix has no sessions to keep a jar for).
 */
function dataIssues(c: AttackConfig): Array<{ path: string[]; message: string }> {
  const issues: Array<{ path: string[]; message: string }> = [];
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

/**
 * What HTTP/2 excludes (for now): flows, pipelining, placeholders in header names; streams on a
 * per-arrival connection (one request each); h2c on https:.
 */
function protocolIssues(c: AttackConfig): Array<{ path: Array<string | number>; message: string }> {
  const issues: Array<{ path: Array<string | number>; message: string }> = [];
  if (c.protocol === "http1") {
    if (c.streams > 1) {
      issues.push({
        path: ["streams"],
        message: "streams apply to HTTP/2: add protocol h2 (--h2), or drop streams",
      });
    }
    return issues;
  }
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
  // An h2 header name must be a lower-case token, checked once when the request is encoded (h2/request.ts).
  c.requestMix.forEach((r, k) => {
    const name = r.headers.find(([n]) => hasPlaceholder(n))?.[0];
    if (name === undefined) return;
    issues.push({
      path: ["requestMix", k, "headers"],
      message:
        `header name "${name}" has a placeholder: over ${what} only values, paths and bodies take them`,
    });
  });
  c.flows?.forEach((flow, f) =>
    flow.steps.forEach((step, k) => {
      const name = "request" in step ? step.request.headers.find(([n]) => hasPlaceholder(n))?.[0] : undefined;
      if (name === undefined) return;
      issues.push({
        path: ["flows", f, "steps", k, "request", "headers"],
        message:
          `header name "${name}" has a placeholder: over ${what} only values, paths and bodies take them`,
      });
    })
  );
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

/** Validates and fills defaults; throws `ConfigError` listing every problem. */
export function parseAttackConfig(input: AttackConfigInput): AttackConfig {
  const parsed = validate(attackConfigSchema, input);
  if (parsed.ok) return parsed.data;
  throw new ConfigError(parsed.issues, { cause: parsed.error });
}

/** Narrows a config to the model an executor runs; a mismatch is a programming error. */
export function configOf<M extends LoadModel>(config: AttackConfig, model: M): AttackConfigOf<M> {
  if (config.model !== model) throw new Error(`${model} executor given a ${config.model} config`);
  return config as AttackConfigOf<M>;
}

/** The measured duration the run aims for: phases' sum, the duration, or none (Infinity) for `count`. */
export function measuredDurationMs(c: AttackConfig): number {
  if (c.model === "rate") return c.phases.reduce((sum, p) => sum + p.durationMs, 0);
  return c.durationMs ?? Infinity;
}
