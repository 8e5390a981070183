/**
 * @module
 * What a target is, as data: the zod schemas, `TargetSpec`, `RunningTarget` and a child's `ChildSpec`, apart
 * from process code so the scenario loader and the parent load no server code.
 */
import { z } from "zod";
import type { InspectedProcess } from "./inspector.ts";
import type { TargetInfo as RunTargetInfo } from "../results/mod.ts";

/** Path where every built-in target (app, proxy, balancer) answers its counters as JSON. */
export const STATS_PATH = "/__loadlab/stats";

/** Compression of the built-in target: `true` negotiates brotli then gzip from Accept-Encoding. */
const compressSchema = z.union([z.boolean(), z.enum(["gzip", "brotli"])]);
export type CompressMode = z.infer<typeof compressSchema>;
export type BalanceMode = "round-robin" | "least-connections";

/** `profile: cpu`: a V8 CPU profile of the target's processes per run (targets/inspector.ts). */
const profileSchema = z.enum(["cpu"]);

/** Runtime sampling inside the target's Node/Deno processes; default: on in experiments, off elsewhere. */
const runtimeTelemetrySchema = z.boolean().optional();
const redisUrlSchema = z.string().url("redisUrl must be a URL like redis://127.0.0.1:6379").optional();
const hostSchema = z.string().min(1, "host must not be empty, e.g. 127.0.0.1");
const portSchema = z.number().int().min(0).max(65535, "port must be 0..65535 (0 picks a free port)");
const placeFields = {
  host: hostSchema.optional(),
  port: portSchema.optional(),
  cpuAffinity: z.array(z.number().int().min(0)).min(1).optional(),
  runtimeTelemetry: runtimeTelemetrySchema,
};

/** The CMS-like `/home` page's database pool (defaults in targets/app/cms.ts). */
export const cmsSchema = z.object({
  poolSize: z.number().int().min(1, "cms.poolSize must be >= 1").max(10_000).optional(),
  /** A timer, like a database round trip, not CPU. */
  queryMs: z.number().min(0, "cms.queryMs must be >= 0").max(60_000).optional(),
  queries: z.number().int().min(0, "cms.queries must be >= 0").max(100).optional(),
  /** Before the page answers 503; 0 waits forever. */
  acquireTimeoutMs: z.number().min(0, "cms.acquireTimeoutMs must be >= 0").optional(),
});

/** HTTPS for a built-in target: PEM files of certificate and key, or `self-signed` (targets/tls_cert.ts). */
const serveTlsSchema = z.union([
  z.literal("self-signed"),
  z.strictObject({ cert: z.string().min(1, "tls.cert must name a PEM file"), key: z.string().min(1) }),
]);
export type ServeTls = z.infer<typeof serveTlsSchema>;

/** How the proxy verifies an `https:` upstream: a CA file (PEM), or `insecure: true` for none. */
const upstreamTlsSchema = z.strictObject({
  caFile: z.string().min(1, "upstreamTls.caFile must name a PEM file").optional(),
  insecure: z.boolean().optional(),
});

export const builtinSpecSchema = z.object({
  kind: z.literal("builtin"),
  profile: profileSchema.optional(),
  tls: serveTlsSchema.optional(),
  ...placeFields,
  compress: compressSchema.optional(),
  /** In-process response cache TTL (apicache-like); 0 or absent disables it. */
  cacheTtlSec: z.number().min(0, "cacheTtlSec must be >= 0").optional(),
  /** Processes behind the balancer; `auto`: one per core but one (cores - 1, at least 1), see `autoCores`. */
  instances: z.union([z.number().int().min(1, "instances must be >= 1").max(64), z.literal("auto")])
    .optional(),
  balance: z.enum(["round-robin", "least-connections", "reuse-port"]).optional(),
  /** Redis for `/redis/:key`; without it and with `redis: true` loadlab starts its own. */
  redisUrl: redisUrlSchema,
  redis: z.boolean().optional(),
  /** Serve `/static/*` from this directory instead of the sample files shipped inside loadlab. */
  staticDir: z.string().optional(),
  /** Cores pinned with taskset when present; `auto`: every core but the last, left to the load generator. */
  cpuAffinity: z.union([z.array(z.number().int().min(0)).min(1), z.literal("auto")]).optional(),
  /** Cost of the CMS-like `/home` page (docs/studies/cache-burst.md). */
  cms: cmsSchema.optional(),
  /** Also serve the gRPC endpoints (targets/app/target.proto) on a port of their own; one instance only. */
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

const rateLimitSchema = z.object({
  limit: z.number().int().positive("rateLimit.limit must be >= 1"),
  windowMs: z.number().int().positive("rateLimit.windowMs must be >= 1"),
});

/** A framework app shipped in `examples/`, run under Node or else Deno's npm compatibility. */
export const exampleSpecSchema = z.object({
  kind: z.literal("example"),
  profile: profileSchema.optional(),
  /** `chat`: the chat-capacity study's WebSocket room on Node (`ws`). */
  app: z.enum(["express", "fastify", "koa", "chat"]),
  /** The experiment uses `/redis/:key`: pass REDIS_URL (start a Redis if no redisUrl) and seed it. */
  redis: z.boolean().optional(),
  redisUrl: redisUrlSchema,
  /** `auto` (default): Node when it is on PATH and examples/node_modules exists, else Deno. */
  runtime: z.enum(["auto", "node", "deno"]).optional(),
  ...placeFields,
});

export type CmsSpec = z.infer<typeof cmsSchema>;

/** What `instances: auto` and `cpuAffinity: auto` stand for on `cores` cores: N = cores - 1 on 0..N-1. */
export function autoCores(cores: number): { instances: number; cpuAffinity: number[] } {
  const instances = Math.max(1, Math.floor(cores) - 1);
  return { instances, cpuAffinity: [...Array(instances).keys()] };
}
export type BuiltinSpec = z.infer<typeof builtinSpecSchema>;
export type ExampleSpec = z.infer<typeof exampleSpecSchema>;
export type ExternalSpec = z.infer<typeof externalSpecSchema>;
export type RateLimit = z.infer<typeof rateLimitSchema>;

/** The proxy's fields; its upstream, which may be a target spec itself, is typed below. */
const proxyFieldsSchema = z.object({
  kind: z.literal("proxy"),
  /** Profiles the proxy process; its upstream has its own `profile`. */
  profile: profileSchema.optional(),
  tls: serveTlsSchema.optional(),
  upstreamTls: upstreamTlsSchema.optional(),
  upstream: z.unknown(),
  /** Redis cache TTL; 0 or absent means no caching (rate limiting only). */
  cacheTtlSec: z.number().min(0, "cacheTtlSec must be >= 0").optional(),
  rateLimit: rateLimitSchema.optional(),
  redisUrl: redisUrlSchema,
  ...placeFields,
});
export type ProxySpec = Omit<z.infer<typeof proxyFieldsSchema>, "upstream"> & {
  upstream: TargetSpec | { url: string };
};
export type TargetSpec = BuiltinSpec | ExternalSpec | ExampleSpec | ProxySpec;

const upstreamSchema: z.ZodType<TargetSpec | { url: string }> = z.lazy(() =>
  z.union([targetSpecSchema, z.object({ url: z.string().url("upstream.url must be a URL") })])
);

export const proxySpecSchema = proxyFieldsSchema.extend({ upstream: upstreamSchema });

/** Validates any target spec by its `kind`; errors name the path (e.g. `upstream.url`). */
const TARGET_KINDS = [builtinSpecSchema, externalSpecSchema, exampleSpecSchema, proxySpecSchema] as const;
export const targetSpecSchema: z.ZodType<TargetSpec> = z.discriminatedUnion("kind", TARGET_KINDS);

/** One OS process of a running target, named for telemetry ("target", "target#2", "balancer"...). */
export type TargetProcess = { name: string; pid: number };

/** What serves the requests, for the results file (`targetInfo`), with a proxy's upstream. */
export type TargetInfo = RunTargetInfo & { upstream?: TargetInfo };

/** A started target. `stop()` is idempotent and leaves no process behind. */
export interface RunningTarget {
  info: TargetInfo;
  /** Without a trailing slash, e.g. http://127.0.0.1:41234. */
  url: string;
  grpcUrl?: string;
  /** Processes sampled for CPU/RSS telemetry. */
  processes: TargetProcess[];
  redisUrl?: string;
  /** With `tls: self-signed`: the CA file a client verifies it with. */
  caFile?: string;
  redisPid?: number;
  /** Where the runtime samplers write; absent when off. */
  runtimeDir?: string;
  /** When the first process was spawned (`performance.now()`), and ms until listening and until ready. */
  coldStart?: { spawnAtMs: number; listeningMs: number | null; readyMs: number };
  /** With `profile: cpu`: the processes whose V8 inspector takes each run's CPU profile. */
  inspected?: InspectedProcess[];
  /** Cumulative counters of the target's processes; {} when none. Take differences over a run. */
  stats(): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

/** Program names whose processes take `--inspect` (Node under its two usual names, Deno). */
function runtimeOf(command: string): "node" | "deno" | null {
  const base = command.split(/[\\/]/).pop() ?? "";
  return base === "node" || base === "nodejs" ? "node" : base === "deno" ? "deno" : null;
}

/** An external `command` with the inspector flag where its runtime reads it, or null when it cannot. */
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

export type ChildSpec =
  & {
    host: string;
    port: number;
    reusePort?: boolean;
    watchStdin?: boolean;
    /** Serve HTTPS with these PEM files (targets/tls_cert.ts). */
    tls?: { certFile: string; keyFile: string };
  }
  & (
    | { role: "app"; redisUrl?: string }
      & Pick<BuiltinSpec, "compress" | "cacheTtlSec" | "staticDir" | "cms">
      /** Also serve the gRPC endpoints (grpc_endpoints.ts) on this port, with the same TLS. */
      & { grpcPort?: number }
    | { role: "balancer"; upstreams: string[]; mode: BalanceMode }
    /** An `https:` upstream is verified with `upstreamTls`'s CA file, or not at all. */
    | { role: "proxy"; upstream: string; redisUrl: string }
      & Pick<ProxySpec, "upstreamTls" | "cacheTtlSec" | "rateLimit">
  );

/** Prefix of the stdout line announcing `{ url, pid }` once the server listens. */
export const READY_PREFIX = "LOADLAB_TARGET_READY ";
