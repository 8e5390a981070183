/**
 * @module
 * What a target is, as data: the zod schemas experiment files are validated with, the `TargetSpec`
 * union `startTarget` accepts, and the `RunningTarget` handle it returns. Kept apart from the code that
 * starts processes so the scenario loader can validate a file without importing any of that.
 */
import { z } from "zod";
import type { InspectedProcess } from "./inspector.ts";

/** Path where every built-in target (app, proxy, balancer) answers its counters as JSON. */
export const STATS_PATH = "/__loadlab/stats";

/** Compression of the built-in target: `true` negotiates brotli then gzip from Accept-Encoding. */
export const compressSchema = z.union([z.boolean(), z.enum(["gzip", "brotli"])]);

/**
 * `profile: cpu`: a V8 CPU profile of the target's Node or Deno processes for every run
 * (targets/inspector.ts), saved as `.cpuprofile` beside results.json.
 */
export const profileSchema = z.enum(["cpu"]);

/**
 * Sample event-loop delay, GC and heap inside the target's Node/Deno processes (targets/runtime_sampler.ts);
 * default: on in experiments (a log folder), off elsewhere.
 */
const runtimeTelemetrySchema = z.boolean().optional();
const redisUrlSchema = z.string().url("redisUrl must be a URL like redis://127.0.0.1:6379").optional();
const hostSchema = z.string().min(1, "host must not be empty, e.g. 127.0.0.1");
const portSchema = z.number().int().min(0).max(65535, "port must be 0..65535 (0 picks a free port)");

/**
 * The CMS-like `/home` page's database pool (defaults in targets/app/cms.ts: 4 slots, 3 queries of 20 ms).
 */
export const cmsSchema = z.object({
  /** Concurrent queries the "database" accepts (connection pool size). */
  poolSize: z.number().int().min(1, "cms.poolSize must be >= 1").max(10_000).optional(),
  /** How long one query holds its slot (a timer, like a database round trip, not CPU). */
  queryMs: z.number().min(0, "cms.queryMs must be >= 0").max(60_000).optional(),
  /** Queries per page, run one after another. */
  queries: z.number().int().min(0, "cms.queries must be >= 0").max(100).optional(),
  /** Longest a query waits for a slot before the page answers 503; 0 waits forever. */
  acquireTimeoutMs: z.number().min(0, "cms.acquireTimeoutMs must be >= 0").optional(),
});

/**
 * HTTPS for a built-in target: PEM files of its certificate (chain) and key, or `self-signed` for a
 * throwaway CA and certificate made at start (targets/tls_cert.ts), the CA written to the run folder.
 */
export const serveTlsSchema = z.union([
  z.literal("self-signed"),
  z.strictObject({ cert: z.string().min(1, "tls.cert must name a PEM file"), key: z.string().min(1) }),
]);
export type ServeTls = z.infer<typeof serveTlsSchema>;

/**
 * How the proxy verifies an `https:` upstream: a CA file (PEM), or `insecure: true` for none. A
 * self-signed upstream the proxy started itself is verified with its own CA without this.
 */
export const upstreamTlsSchema = z.strictObject({
  caFile: z.string().min(1, "upstreamTls.caFile must name a PEM file").optional(),
  insecure: z.boolean().optional(),
});
export type UpstreamTlsSpec = z.infer<typeof upstreamTlsSchema>;

export const builtinSpecSchema = z.object({
  kind: z.literal("builtin"),
  profile: profileSchema.optional(),
  tls: serveTlsSchema.optional(),
  host: hostSchema.optional(),
  port: portSchema.optional(),
  compress: compressSchema.optional(),
  /** In-process response cache TTL (apicache-like); 0 or absent disables it. */
  cacheTtlSec: z.number().min(0, "cacheTtlSec must be >= 0").optional(),
  /** Processes behind the balancer; `auto`: one per core but one (cores - 1, at least 1), see `autoCores`. */
  instances: z.union([z.number().int().min(1, "instances must be >= 1").max(64), z.literal("auto")])
    .optional(),
  balance: z.enum(["round-robin", "least-connections", "reuse-port"]).optional(),
  /** Redis for `/redis/:key`; without it and with `redis: true` loadlab starts its own. */
  redisUrl: redisUrlSchema,
  /** The experiment uses `/redis/:key`: make sure a Redis is there (start one if no redisUrl). */
  redis: z.boolean().optional(),
  /** Serve `/static/*` from this directory instead of the sample files shipped inside loadlab. */
  staticDir: z.string().optional(),
  /**
   * Cores the target processes are pinned to with taskset (ignored when taskset is missing); `auto`:
   * every core but the last, which stays with the load generator (core 0 alone on 2 cores).
   */
  cpuAffinity: z.union([z.array(z.number().int().min(0)).min(1), z.literal("auto")]).optional(),
  /** Cost of the CMS-like `/home` page (docs/studies/cache-burst.md). */
  cms: cmsSchema.optional(),
  runtimeTelemetry: runtimeTelemetrySchema,
  /**
   * Also serve the gRPC endpoints (targets/app/target.proto) from the same process, on a port of their
   * own; gRPC runs against this target go there (`RunningTarget.grpcUrl`). One instance only.
   */
  grpc: z.boolean().optional(),
});

export const externalSpecSchema = z.object({
  kind: z.literal("external"),
  /** Needs `command` to be node or deno (`deno run`/`deno serve`): see `profileBlocker`. */
  profile: profileSchema.optional(),
  command: z.string().min(1, "command must name a program, e.g. node"),
  args: z.array(z.string()).optional(),
  cwd: z.string().optional(),
  env: z.record(z.string(), z.string()).optional(),
  url: z.string().url("url must be the app's base URL, e.g. http://127.0.0.1:3000"),
  ready: z.object({
    /** GET <url><path> must answer 2xx; without a path, the port accepting a connection is enough. */
    path: z.string().startsWith("/", "ready.path must start with '/'").optional(),
    timeoutMs: z.number().positive("ready.timeoutMs must be > 0").optional(),
  }).optional(),
  logFile: z.string().optional(),
  runtimeTelemetry: runtimeTelemetrySchema,
});

export const rateLimitSchema = z.object({
  limit: z.number().int().positive("rateLimit.limit must be >= 1"),
  windowMs: z.number().int().positive("rateLimit.windowMs must be >= 1"),
});

/**
 * A framework app shipped in `examples/` (docs/studies/frameworks.md), run under Node or else Deno's npm
 * compatibility.
 */
export const exampleSpecSchema = z.object({
  kind: z.literal("example"),
  profile: profileSchema.optional(),
  /**
   * `chat`: the chat-capacity study's WebSocket room on Node (`ws`), not a framework of the frameworks study.
   */
  app: z.enum(["express", "fastify", "koa", "chat"]),
  /** The experiment uses `/redis/:key`: pass REDIS_URL (start a Redis if no redisUrl) and seed it. */
  redis: z.boolean().optional(),
  redisUrl: redisUrlSchema,
  /** `auto` (default): Node when it is on PATH and examples/node_modules exists, else Deno. */
  runtime: z.enum(["auto", "node", "deno"]).optional(),
  host: hostSchema.optional(),
  port: portSchema.optional(),
  cpuAffinity: z.array(z.number().int().min(0)).min(1).optional(),
  runtimeTelemetry: runtimeTelemetrySchema,
});

export type CmsSpec = z.infer<typeof cmsSchema>;

/**
 * What `instances: auto` and `cpuAffinity: auto` of the built-in target stand for on a machine with
 * `cores` cores: N = cores - 1 instances pinned to cores 0..N-1, so the load generator keeps the last
 * core (as the cpu-sleep study's cluster needs); on 1 or 2 cores that is one instance on core 0.
 */
export function autoCores(cores: number): { instances: number; cpuAffinity: number[] } {
  const instances = Math.max(1, Math.floor(cores) - 1);
  return { instances, cpuAffinity: [...Array(instances).keys()] };
}
export type BuiltinSpec = z.infer<typeof builtinSpecSchema>;
export type ExampleSpec = z.infer<typeof exampleSpecSchema>;
export type ExternalSpec = z.infer<typeof externalSpecSchema>;
export type RateLimit = z.infer<typeof rateLimitSchema>;
export interface ProxySpec {
  kind: "proxy";
  profile?: "cpu";
  tls?: ServeTls;
  upstreamTls?: UpstreamTlsSpec;
  upstream: TargetSpec | { url: string };
  /** Redis cache TTL; 0 or absent means no caching (rate limiting only). */
  cacheTtlSec?: number;
  rateLimit?: RateLimit;
  redisUrl?: string;
  host?: string;
  port?: number;
  cpuAffinity?: number[];
  runtimeTelemetry?: boolean;
}
export type TargetSpec = BuiltinSpec | ExternalSpec | ExampleSpec | ProxySpec;

const upstreamSchema: z.ZodType<TargetSpec | { url: string }> = z.lazy(() =>
  z.union([targetSpecSchema, z.object({ url: z.string().url("upstream.url must be a URL") })])
);

export const proxySpecSchema = z.object({
  kind: z.literal("proxy"),
  /** Profiles the proxy process; its upstream has its own `profile`. */
  profile: profileSchema.optional(),
  tls: serveTlsSchema.optional(),
  upstreamTls: upstreamTlsSchema.optional(),
  upstream: upstreamSchema,
  cacheTtlSec: z.number().min(0, "cacheTtlSec must be >= 0").optional(),
  rateLimit: rateLimitSchema.optional(),
  redisUrl: redisUrlSchema,
  host: hostSchema.optional(),
  port: portSchema.optional(),
  cpuAffinity: z.array(z.number().int().min(0)).min(1).optional(),
  runtimeTelemetry: runtimeTelemetrySchema,
});

/** Validates any target spec by its `kind`; errors name the path (e.g. `upstream.url`). */
export const targetSpecSchema: z.ZodType<TargetSpec> = z.discriminatedUnion("kind", [
  builtinSpecSchema,
  externalSpecSchema,
  exampleSpecSchema,
  proxySpecSchema,
]);

/** One OS process of a running target, named for telemetry ("target", "target#2", "balancer"...). */
export interface TargetProcess {
  name: string;
  pid: number;
}

/** What serves the requests, for the results file (`targetInfo`); a type so it fits a loose object. */
export type TargetInfo = {
  kind: "builtin" | "external" | "example" | "proxy";
  /** `deno 2.9.6`, `node v20.20.2`, `deno 2.9.6 (npm compat)`; absent when unknown (external apps). */
  runtime?: string;
  /** The command line that was started (external and example apps). */
  command?: string;
  /** Built-in target whose spec sets `instances`: the processes serving requests (`auto` resolved). */
  instances?: number;
  /** For a proxy: what it is in front of. */
  upstream?: TargetInfo;
};

/** A started target. `stop()` is idempotent and leaves no process behind. */
export interface RunningTarget {
  info: TargetInfo;
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:41234. */
  url: string;
  /** A built-in target with `grpc: true`: the base URL of its gRPC endpoints. */
  grpcUrl?: string;
  /** Processes whose CPU/RSS telemetry is sampled (same order as `processes`). */
  pids: number[];
  processes: TargetProcess[];
  /** The Redis this target uses, if any, so telemetry can read its INFO. */
  redisUrl?: string;
  /** HTTPS targets made with `tls: self-signed`: the CA file a client verifies them with. */
  caFile?: string;
  /** PID of a redis-server loadlab started for this target, for CPU/RSS telemetry. */
  redisPid?: number;
  /** Where the runtime samplers in its processes write (targets/runtime_sampler.ts); absent when off. */
  runtimeDir?: string;
  /**
   * Its cold start: when the first process was spawned (`performance.now()` of this process), and ms
   * from then until the last process listened (null when not observed) and until it was ready.
   */
  coldStart?: { spawnAtMs: number; listeningMs: number | null; readyMs: number };
  /** With `profile: cpu`: the processes whose V8 inspector takes each run's CPU profile. */
  inspected?: InspectedProcess[];
  /**
   * Cumulative counters (proxy hits/misses/bypasses, cacheHits/cacheMisses/staleHits, cms* pool counters);
   * {} when the target has none. Async: they live in the target's processes. Take differences over a run.
   */
  stats(): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

/** Program names whose processes take `--inspect` (Node under its two usual names, Deno). */
function runtimeOf(command: string): "node" | "deno" | null {
  const base = command.split(/[\\/]/).pop() ?? "";
  return base === "node" || base === "nodejs" ? "node" : base === "deno" ? "deno" : null;
}

/**
 * The arguments of an external `command` with the inspector flag added where its runtime reads it (before
 * the script for Node, after `run`/`serve` for Deno), or null when the command cannot be profiled.
 */
export function argsWithInspect(command: string, args: string[], flag: string): string[] | null {
  const runtime = runtimeOf(command);
  if (runtime === "node") return [flag, ...args];
  if (runtime === "deno" && (args[0] === "run" || args[0] === "serve")) {
    return [args[0], flag, ...args.slice(1)];
  }
  return null;
}

/** Why `profile: cpu` cannot work on this external command, or null when it can. */
export function profileBlocker(spec: Pick<ExternalSpec, "command" | "args">): string | null {
  if (argsWithInspect(spec.command, spec.args ?? [], "") !== null) return null;
  return runtimeOf(spec.command) === "deno"
    ? `profile: cpu needs 'deno run' or 'deno serve' (args start with ${
      JSON.stringify(spec.args?.[0] ?? "")
    })`
    : `profile: cpu needs a node or deno command (V8 inspector), not '${spec.command}': start the app with ` +
      "command: node (not through npm or a shell, whose own node would take the inspector's port)";
}
