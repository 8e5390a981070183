/**
 * @module
 * The validated configuration of one attack (one run of one load model against one URL). Parsed with
 * zod so every problem names its path and the fix; the CLI, experiment files and presets all build this
 * same object, and worker isolates receive it as structured-cloned data. Durations are milliseconds,
 * rates are requests per second.
 */
import { z } from "zod";

/** One request of a mix; `weight` decides how often it is picked relative to the others. */
export const requestSpecSchema = z.object({
  method: z.string().regex(/^[A-Z]+$/, "method must be upper-case letters, e.g. GET or POST")
    .default("GET"),
  /** Path with query, e.g. `/json?x=1`. Joined to the URL's origin. */
  path: z.string().startsWith("/", "path must start with '/'").default("/"),
  headers: z.array(z.tuple([z.string().min(1), z.string()])).default([]),
  body: z.instanceof(Uint8Array).optional(),
  weight: z.number().positive("weight must be > 0").default(1),
});
export type RequestSpec = z.infer<typeof requestSpecSchema>;

/** One arrival-rate phase (Artillery's arrivalRate / rampTo); rate 0 is a pause. */
export const phaseSchema = z.object({
  durationMs: z.number().positive("phase duration must be > 0"),
  ratePerSec: z.number().min(0, "rate must be >= 0"),
  rampToPerSec: z.number().min(0, "rampTo must be >= 0").optional(),
  name: z.string().optional(),
});
export type Phase = z.infer<typeof phaseSchema>;

export const loadModelSchema = z.enum(["connections", "rate", "throughput", "count"]);

export const attackConfigSchema = z.object({
  url: z.string().url("url must be an absolute http:// or https:// URL").refine(
    (u) => u.startsWith("http://") || u.startsWith("https://"),
    "url must start with http:// or https://",
  ),
  model: loadModelSchema,
  /** Closed model: the connections kept busy. Throughput model: connections the rate is spread over. */
  connections: z.number().int().positive("connections must be >= 1").default(10),
  /** Open models: upper bound of connections opened on demand. */
  maxConnections: z.number().int().positive("maxConnections must be >= 1").default(1000),
  /** Measured duration (default 10 s); for `count` an optional upper bound; for `rate` the phases' sum. */
  durationMs: z.number().positive("duration must be > 0").optional(),
  /** `count` model: the exact number of requests to send. */
  requests: z.number().int().positive("requests (-n) must be >= 1").optional(),
  /** `rate` model phases; `count` with a rate uses open pacing. */
  phases: z.array(phaseSchema).min(1).optional(),
  /** `throughput` model (and open `count`): constant total rate. */
  ratePerSec: z.number().positive("rate must be > 0").optional(),
  requestMix: z.array(requestSpecSchema).min(1).prefault([{}]),
  timeoutMs: z.number().positive("timeout must be > 0").default(10_000),
  pipelining: z.number().int().min(1, "pipelining must be >= 1").max(256).default(1),
  workers: z.number().int().min(1, "workers must be >= 1").max(64).default(1),
  intervalMs: z.number().min(10, "interval must be >= 10ms").default(250),
  /** Keep each interval's encoded histogram in results (exact warm-up cuts, per-phase percentiles). */
  intervalHistograms: z.boolean().default(true),
  warmupMs: z.number().min(0, "warm-up must be >= 0").default(0),
  /** Open models: a send later than this is dropped (counted) instead of sent. */
  lateBoundMs: z.number().positive().default(1_000),
  /** Time given to in-flight requests after the end before they are counted as timeouts. */
  gracefulStopMs: z.number().min(0).default(2_000),
  logFile: z.string().optional(),
}).superRefine((c, ctx) => {
  if (c.model === "count" && c.requests === undefined) {
    ctx.addIssue({ code: "custom", path: ["requests"], message: "count model needs -n <requests>" });
  }
  if (c.model === "rate" && !c.phases) {
    ctx.addIssue({ code: "custom", path: ["phases"], message: "rate model needs --rate or phases" });
  }
  if (c.model === "throughput" && c.ratePerSec === undefined) {
    ctx.addIssue({ code: "custom", path: ["ratePerSec"], message: "throughput model needs -R <rate>" });
  }
  if (c.workers > c.connections && c.model !== "rate") {
    ctx.addIssue({
      code: "custom",
      path: ["workers"],
      message: `workers (${c.workers}) must not exceed connections (${c.connections})`,
    });
  }
});

/** What callers pass in; defaults are filled by `parseAttackConfig`. */
export type AttackConfigInput = z.input<typeof attackConfigSchema>;
export type AttackConfig = z.output<typeof attackConfigSchema>;

/** A configuration problem, one line per issue, each naming the path. Exit code 2 at the CLI. */
export class ConfigError extends Error {
  override name = "ConfigError";
  constructor(readonly problems: string[], options?: ErrorOptions) {
    super(problems.join("; "), options);
  }
}

/** Validates and fills defaults; throws `ConfigError` listing every problem. */
export function parseAttackConfig(input: AttackConfigInput): AttackConfig {
  const parsed = attackConfigSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new ConfigError(formatZodIssues(parsed.error.issues), { cause: parsed.error });
}

/** `path.to.field: message` lines, so the user sees where and what to fix. */
export function formatZodIssues(issues: z.core.$ZodIssue[]): string[] {
  return issues.map((i) => `${i.path.length ? i.path.join(".") : "(root)"}: ${i.message}`);
}

/** Default measured duration of the closed and throughput models when none is given. */
export const DEFAULT_DURATION_MS = 10_000;

/** The measured duration the run aims for: phases' sum, the given duration, or none for `count`. */
export function measuredDurationMs(c: AttackConfig): number {
  if (c.model === "rate" && c.phases) return c.phases.reduce((sum, p) => sum + p.durationMs, 0);
  if (c.model === "count") return c.durationMs ?? Infinity;
  return c.durationMs ?? DEFAULT_DURATION_MS;
}
