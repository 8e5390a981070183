/**
 * @module
 * `startTarget`: a `TargetSpec` as running processes and one handle to stop them all. Built-in instances,
 * the balancer and the proxy are this program started again with a child spec (child_main.ts), each on
 * its own core. All or nothing: when a step fails, what was started is stopped before the error.
 */
import type { BalanceMode } from "./balancer/balancer.ts";
import type { ChildSpec } from "./child_spec.ts";
import { spawnChild, statsClient, sumStats, tlsFilesOf } from "./child_start.ts";
import { TargetError } from "./errors.ts";
import { exampleCommand } from "./example.ts";
import { connectRedis, seedRedis } from "./redis.ts";
import {
  coldStartOf,
  logFile,
  noStats,
  runtimeDirOf,
  Stack,
  startApp,
  type Started,
  type StartOptions,
  startRedis,
} from "./start_stack.ts";
import { formatIssues, validate } from "../validation/mod.ts";
import { freePort } from "../system/ports.ts";
import {
  autoCores,
  type BuiltinSpec,
  type ExampleSpec,
  type ExternalSpec,
  type ProxySpec,
  type RunningTarget,
  type TargetInfo,
  type TargetSpec,
  targetSpecSchema,
} from "./spec.ts";

const DENO_RUNTIME = `deno ${Deno.version.deno}`;

type AppSpec = Omit<ChildSpec & { role: "app" }, "port">;

/** A built-in target's instances as its spec asks for them, and the stack and options they start with. */
interface Instances {
  stack: Stack;
  spec: BuiltinSpec;
  opts: StartOptions;
  host: string;
  count: number;
  cpuAffinity?: number[];
  app: AppSpec;
  /** TLS where clients connect: on the one instance or each reuse-port instance, else on the balancer. */
  edge: { tls?: { certFile: string; keyFile: string } };
}

/** The URL the load is sent to, and the URLs whose counters make the target's stats (none: no stats). */
interface Reached {
  url: string;
  grpcUrl?: string;
  statsUrls: string[];
}

async function startBuiltin(stack: Stack, spec: BuiltinSpec, opts: StartOptions): Promise<Started> {
  const redis = await startRedis(stack, spec.redisUrl, spec.redis ?? false, opts);
  const host = spec.host ?? "127.0.0.1";
  const auto = autoCores(navigator.hardwareConcurrency);
  const instances = spec.instances === "auto" ? auto.instances : spec.instances ?? 1;
  const cpuAffinity = spec.cpuAffinity === "auto" ? auto.cpuAffinity : spec.cpuAffinity;
  if (spec.grpc && instances !== 1) {
    throw new TargetError(
      `grpc: true with ${instances} instances`,
      "the gRPC endpoints are served by one instance: drop instances (or set it to 1)",
    );
  }
  const app = appSpec(spec, host, redis?.url);
  const tls = await tlsFilesOf(stack, spec.tls, opts);
  // Behind the balancer the instances stay plain HTTP: TLS ends at the balancer, as at a load balancer.
  const edge = tls ? { tls: { certFile: tls.certFile, keyFile: tls.keyFile } } : {};
  const plan: Instances = { stack, spec, opts, host, count: instances, cpuAffinity, app, edge };
  const { url, statsUrls, grpcUrl } = instances === 1
    ? await spawnOne(plan)
    : spec.balance === "reuse-port"
    ? await spawnReusePort(plan)
    : await spawnBalanced(plan);
  // Recorded when the spec asks for instances, so the report can compare 1 against N (cpu-sleep study).
  const info: TargetInfo = {
    kind: "builtin",
    runtime: DENO_RUNTIME,
    ...(spec.instances === undefined ? {} : { instances }),
  };
  const client = statsClient(stack, tls);
  return {
    url,
    ...(grpcUrl ? { grpcUrl } : {}),
    redis,
    info,
    stats: statsUrls.length ? () => sumStats(statsUrls, client) : noStats,
    ...(tls?.caFile ? { caFile: tls.caFile } : {}),
  };
}

function appSpec(spec: BuiltinSpec, host: string, redisUrl: string | undefined): AppSpec {
  return {
    role: "app",
    host,
    watchStdin: true,
    compress: spec.compress,
    cacheTtlSec: spec.cacheTtlSec,
    staticDir: spec.staticDir,
    redisUrl,
    cms: spec.cms,
  };
}

/** The first instance is the target; the others are numbered from 2. */
function instanceName(i: number): string {
  return i === 0 ? "target" : `target#${i + 1}`;
}

async function spawnOne(plan: Instances): Promise<Reached> {
  const { stack, spec, opts } = plan;
  const grpcPort = spec.grpc ? freePort(plan.host) : undefined;
  const only = { ...plan.app, ...plan.edge, port: spec.port ?? 0, ...(grpcPort ? { grpcPort } : {}) };
  const url = await spawnChild(stack, "target", only, opts, plan.cpuAffinity, spec.profile);
  // The gRPC endpoints listen beside the app, on the same host and with the same TLS.
  const grpcUrl = grpcPort === undefined ? undefined : url.replace(/:\d+$/, `:${grpcPort}`);
  return { url, statsUrls: [url], ...(grpcUrl ? { grpcUrl } : {}) };
}

/** Instances sharing one port, the kernel spreading the connections. */
async function spawnReusePort(plan: Instances): Promise<Reached> {
  const { stack, spec, opts } = plan;
  const port = spec.port || freePort(plan.host);
  const urls = await Promise.all(
    [...Array(plan.count).keys()].map((i) =>
      spawnChild(
        stack,
        instanceName(i),
        { ...plan.app, ...plan.edge, port, reusePort: true },
        opts,
        plan.cpuAffinity,
        spec.profile,
      )
    ),
  );
  // Reuse-port instances share one address, so no single one can be asked for its counters.
  return { url: urls[0], statsUrls: [] };
}

/** Instances on ports of their own behind the balancer, which is what the load is sent to. */
async function spawnBalanced(plan: Instances): Promise<Reached> {
  const { stack, spec, opts } = plan;
  const upstreams = await Promise.all(
    [...Array(plan.count).keys()].map((i) =>
      spawnChild(stack, instanceName(i), { ...plan.app, port: 0 }, opts, plan.cpuAffinity, spec.profile)
    ),
  );
  const mode: BalanceMode = spec.balance === "least-connections" ? "least-connections" : "round-robin";
  const balancer: ChildSpec = {
    role: "balancer",
    host: plan.host,
    port: spec.port ?? 0,
    watchStdin: true,
    upstreams,
    mode,
    ...plan.edge,
  };
  const url = await spawnChild(stack, "balancer", balancer, opts, plan.cpuAffinity, spec.profile);
  return { url, statsUrls: [url, ...upstreams] };
}

async function startExternal(stack: Stack, spec: ExternalSpec, opts: StartOptions): Promise<Started> {
  const url = spec.url.replace(/\/+$/, "");
  await startApp(stack, opts, {
    name: "external app",
    command: spec.command,
    args: spec.args ?? [],
    cwd: spec.cwd,
    env: spec.env,
    logFile: spec.logFile ?? logFile(opts, "external"),
    profile: spec.profile,
  }, { url, readyPath: spec.ready?.path, timeoutMs: spec.ready?.timeoutMs ?? 30_000 });
  const command = [spec.command, ...spec.args ?? []].join(" ");
  return { url, redis: null, info: { kind: "external", command }, stats: noStats };
}

/** Deno's first run of an app may download its npm packages: allow for that. */
const READY_TIMEOUT_MS = 120_000;

/** Starts `spec.app` on a free port and waits until `/json` answers 2xx. */
async function startExample(stack: Stack, spec: ExampleSpec, opts: StartOptions): Promise<Started> {
  const run = exampleCommand(spec);
  const redis = await startRedis(stack, spec.redisUrl, spec.redis ?? false, opts);
  if (redis) {
    const client = await connectRedis(redis.url);
    await seedRedis(client).finally(() => client.disconnect().catch(() => {}));
  }
  const host = spec.host ?? "127.0.0.1";
  const port = spec.port || freePort(host);
  const env: Record<string, string> = { PORT: String(port), HOST: host, NODE_ENV: "production" };
  if (redis) env.REDIS_URL = redis.url;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  await startApp(stack, opts, {
    name: `${spec.app} app`,
    command: run.command,
    args: run.args,
    cwd: run.cwd,
    env,
    logFile: logFile(opts, spec.app),
    cpuAffinity: spec.cpuAffinity,
    profile: spec.profile,
  }, { url, readyPath: "/json", timeoutMs: READY_TIMEOUT_MS });
  const command = [run.command, ...run.args].join(" ");
  return { url, redis, info: { kind: "example", runtime: run.runtime, command }, stats: noStats };
}

async function startProxy(stack: Stack, spec: ProxySpec, opts: StartOptions): Promise<Started> {
  let upstreamUrl: string;
  let upstream: RunningTarget | null = null;
  if ("kind" in spec.upstream) {
    const started = upstream = await startTarget(spec.upstream, { logDir: opts.logDir });
    stack.push(() => started.stop());
    stack.spawnedAtMs ??= started.coldStart?.spawnAtMs ?? null;
    upstreamUrl = upstream.url;
    stack.processes.push(...upstream.processes);
    stack.inspected.push(...upstream.inspected ?? []);
  } else upstreamUrl = spec.upstream.url.replace(/\/+$/, "");
  const redis = (await startRedis(stack, spec.redisUrl, true, opts))!;
  const tls = await tlsFilesOf(stack, spec.tls, opts, "proxy-tls-");
  const proxy: ChildSpec = {
    role: "proxy",
    ...(tls ? { tls: { certFile: tls.certFile, keyFile: tls.keyFile } } : {}),
    host: spec.host ?? "127.0.0.1",
    port: spec.port ?? 0,
    watchStdin: true,
    upstream: upstreamUrl,
    ...upstreamTlsOf(spec, upstream),
    redisUrl: redis.url,
    cacheTtlSec: spec.cacheTtlSec,
    rateLimit: spec.rateLimit,
  };
  const url = await spawnChild(stack, "proxy", proxy, opts, spec.cpuAffinity, spec.profile);
  // The proxy is what the load hits: first for telemetry.
  stack.processes.unshift(stack.processes.pop()!);
  const info: TargetInfo = { kind: "proxy", runtime: DENO_RUNTIME, upstream: upstream?.info };
  // The upstream's counters (staleHits, cms*) are named apart from the proxy's (hits, misses, ...).
  const client = statsClient(stack, tls);
  const stats = async () => ({ ...await upstream?.stats(), ...await sumStats([url], client) });
  return { url, redis, info, stats, ...(tls?.caFile ? { caFile: tls.caFile } : {}) };
}

/** The proxy's verification of an `https:` upstream: as given, else the CA of its self-signed one. */
function upstreamTlsOf(
  spec: ProxySpec,
  upstream: RunningTarget | null,
): Pick<ChildSpec & { role: "proxy" }, "upstreamTls"> {
  const caFile = spec.upstreamTls?.caFile ?? upstream?.caFile;
  if (caFile === undefined && !spec.upstreamTls?.insecure) return {};
  return { upstreamTls: { caFile, insecure: spec.upstreamTls?.insecure } };
}

function validSpec(spec: TargetSpec): TargetSpec {
  const parsed = validate(targetSpecSchema, spec);
  if (parsed.ok) return parsed.data;
  const problems = formatIssues(parsed.issues);
  throw new TargetError(`invalid target: ${problems.join("; ")}`, "fix the target fields named above", {
    cause: parsed.error,
  });
}

/** Starts the target described by `spec`; throws TargetError (after cleaning up) when it cannot. */
export async function startTarget(spec: TargetSpec, opts: StartOptions = {}): Promise<RunningTarget> {
  const valid = validSpec(spec);
  if (opts.signal?.aborted) throw new TargetError("target start aborted", "", { cause: opts.signal.reason });
  const stack = new Stack();
  let started: Started;
  try {
    opts = { ...opts, runtime: await runtimeDirOf(stack, valid, opts) };
    started = valid.kind === "builtin"
      ? await startBuiltin(stack, valid, opts)
      : valid.kind === "external"
      ? await startExternal(stack, valid, opts)
      : valid.kind === "example"
      ? await startExample(stack, valid, opts)
      : await startProxy(stack, valid, opts);
  } catch (err) {
    await stack.stopAll();
    if (err instanceof TargetError) throw err;
    throw new TargetError(`cannot start ${valid.kind} target: ${(err as Error).message}`, "see the cause", {
      cause: err,
    });
  }
  return handle(stack, started, opts);
}

function handle(stack: Stack, started: Started, opts: StartOptions): RunningTarget {
  const signal = opts.signal;
  let stopping: Promise<void> | null = null;
  const stop = () => stopping ??= stack.stopAll();
  signal?.addEventListener("abort", () => void stop(), { once: true });
  if (signal?.aborted) void stop(); // aborted while starting: the listener above will never fire
  return {
    info: started.info,
    url: started.url,
    ...(started.grpcUrl ? { grpcUrl: started.grpcUrl } : {}),
    processes: stack.processes,
    pids: stack.processes.map((p) => p.pid),
    redisUrl: started.redis?.url,
    redisPid: started.redis?.pid,
    ...(opts.runtime ? { runtimeDir: opts.runtime.dir } : {}),
    coldStart: coldStartOf(stack),
    ...(stack.inspected.length ? { inspected: stack.inspected } : {}),
    ...(started.caFile ? { caFile: started.caFile } : {}),
    stats: () => stopping ? Promise.resolve({}) : started.stats(),
    stop,
  };
}
