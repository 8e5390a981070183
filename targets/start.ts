/**
 * @module
 * `startTarget`: a `TargetSpec` as running processes (built-in ones are this program with a child spec, each
 * on its own core) and one handle to stop them; when a step fails, what was started stops in reverse.
 */
import { defined } from "../validation/defined.ts";
import { TargetError } from "./errors.ts";
import { exampleCommand } from "./example.ts";
import { type InspectedProcess, inspectFlag } from "./inspector.ts";
import { ManagedProcess, pollReady, type SpawnOptions } from "./process.ts";
import { connectRedis, type RedisHandle, resolveRedis, seedRedis } from "./redis.ts";
import { makeRuntimeDir, type RuntimeDir, withPreload } from "./runtime_preload.ts";
import { RUNTIME_DIR_ENV } from "./runtime_sampler.ts";
import { type ServeTlsFiles, serveTlsFiles } from "./tls_cert.ts";
import { validate } from "../validation/mod.ts";
import { formatIssues } from "../validation/config_error.ts";
import { accepts, freePort, urlHost } from "../system/ports.ts";
import { statOrNull } from "../system/path_lookup.ts";
import {
  argsWithInspect,
  autoCores,
  type BalanceMode,
  type BuiltinSpec,
  type ChildSpec,
  type ExampleSpec,
  type ExternalSpec,
  profileBlocker,
  type ProxySpec,
  READY_PREFIX,
  type RunningTarget,
  type ServeTls,
  STATS_PATH,
  type TargetInfo,
  type TargetProcess,
  type TargetSpec,
  targetSpecSchema,
} from "./spec.ts";

interface StartOptions {
  /** Aborting stops the target; an already aborted signal fails the start. */
  signal?: AbortSignal;
  /** Without it output is drained and only its tail kept. */
  logDir?: string;
  /** Set by startTarget (targets/runtime_preload.ts). */
  runtime?: RuntimeDir;
}

/** What a kind's start hands to `handle`: the running target's own fields and its Redis. */
type Started = Pick<RunningTarget, "url" | "grpcUrl" | "info" | "stats" | "caFile"> & {
  redis: RedisHandle | null;
};

/** The `stats` of a target whose processes keep no counters. */
const noStats = (): Promise<Record<string, number>> => Promise.resolve({});

/** Everything started so far, stopped in reverse order. */
class Stack {
  #stops: Array<() => Promise<void>> = [];
  processes: TargetProcess[] = [];
  /** Cold start (`performance.now()`): the first target process spawned, the last one listening. */
  spawnedAtMs: number | null = null;
  /** When a target process accepts connections (the last one set counts). */
  listeningAtMs: number | null = null;
  inspected: InspectedProcess[] = [];
  push(stop: () => Promise<void>): void {
    this.#stops.push(stop);
  }
  /** Spawns a target process named `name` (its inspector on `inspectPort`), stopped with the stack. */
  spawn(name: string, options: SpawnOptions, inspectPort?: number): ManagedProcess {
    this.spawnedAtMs ??= performance.now();
    const proc = ManagedProcess.spawn(options);
    this.push(() => proc.stop());
    this.processes.push({ name, pid: proc.pid });
    if (inspectPort !== undefined) this.inspected.push({ name, port: inspectPort, pid: proc.pid });
    return proc;
  }
  async stopAll(): Promise<void> {
    for (const stop of this.#stops.splice(0).reverse()) await stop().catch(() => {});
  }
}

function logFile(opts: StartOptions, name: string): string | undefined {
  return opts.logDir ? `${opts.logDir}/${name.replace(/[^\w.-]/g, "_")}.log` : undefined;
}

/** The Redis a target was given (`url`) or needs (a local redis-server started), stopped with the stack. */
async function startRedis(stack: Stack, url: string | undefined, needed: boolean, opts: StartOptions) {
  const redis = await resolveRedis(url, needed, { logFile: logFile(opts, "redis-server") });
  if (redis) stack.push(() => redis.stop());
  return redis;
}

/** Starts an external or example app; ready when its port accepts and GET `readyPath` answers 2xx. */
async function startApp(
  stack: Stack,
  opts: StartOptions,
  { profile, ...spawn }: SpawnOptions & { args: string[]; profile?: "cpu" },
  ready: { url: string; readyPath?: string; timeoutMs: number },
): Promise<string> {
  const inspectPort = profile ? freePort("127.0.0.1") : undefined;
  const args = inspectPort === undefined
    ? spawn.args
    : argsWithInspect(spawn.command, spawn.args, inspectFlag(inspectPort));
  if (args === null) {
    throw new TargetError(`${spawn.name}: ${profileBlocker(spawn)}`, "drop profile: cpu from this target");
  }
  const run = opts.runtime
    ? withPreload(opts.runtime, spawn.command, args, spawn.env)
    : { args, env: spawn.env };
  const proc = stack.spawn("target", { ...spawn, args: run.args, env: run.env }, inspectPort);
  await pollReady(proc, async () => {
    if (stack.listeningAtMs === null && await accepts(ready.url)) stack.listeningAtMs = performance.now();
    if (!ready.readyPath) return stack.listeningAtMs !== null;
    const res = await fetch(ready.url + ready.readyPath, { signal: AbortSignal.timeout(1000) });
    await res.body?.cancel();
    stack.listeningAtMs ??= performance.now(); // it answered: it listened by now at the latest
    return res.ok;
  }, ready.timeoutMs);
  return [spawn.command, ...spawn.args].join(" ");
}

/** Samplers' folder: `runtime/` in the log folder, else a temp one for `runtimeTelemetry: true`, or none. */
async function runtimeDirOf(stack: Stack, spec: TargetSpec, opts: StartOptions) {
  if (spec.runtimeTelemetry === false) return undefined;
  if (opts.logDir !== undefined) return await makeRuntimeDir(`${opts.logDir}/runtime`);
  return spec.runtimeTelemetry === true
    ? await makeRuntimeDir(await tempDir(stack, "loadlab-runtime-"))
    : undefined;
}

/** A temp folder removed as the stack stops. */
async function tempDir(stack: Stack, prefix: string): Promise<string> {
  const temp = await Deno.makeTempDir({ prefix });
  stack.push(() => Deno.remove(temp, { recursive: true }).catch(() => {}));
  return temp;
}

/** Spawn to listening and to ready in ms, from the stack's marks; undefined when nothing was spawned. */
function coldStartOf(stack: Stack): RunningTarget["coldStart"] {
  const spawnAtMs = stack.spawnedAtMs;
  if (spawnAtMs === null) return undefined;
  const since = (ms: number) => Math.round((ms - spawnAtMs) * 10) / 10;
  return {
    spawnAtMs,
    listeningMs: stack.listeningAtMs === null ? null : since(stack.listeningAtMs),
    readyMs: since(performance.now()),
  };
}

const CHILD_READY_TIMEOUT_MS = 30_000;

/** How to run `child_main.ts`: the binary's hidden subcommand, or `deno run` (inspector if asked). */
function childCommand(spec: ChildSpec, inspectPort?: number): { command: string; args: string[] } {
  const json = JSON.stringify(spec);
  if (Deno.build.standalone) {
    if (inspectPort !== undefined) {
      throw new TargetError(
        "profile: cpu cannot profile the built-in target of a compiled loadlab binary",
        "run loadlab from source (deno task loadlab ...) to profile it",
      );
    }
    return { command: Deno.execPath(), args: ["__target", json] };
  }
  const entry = new URL("./child_main.ts", import.meta.url);
  const config = new URL("../deno.json", import.meta.url);
  // --unstable-net: `reusePort` is still an unstable Deno API.
  const args = ["run", "-A", "--quiet", "--unstable-net"];
  if (inspectPort !== undefined) args.push(inspectFlag(inspectPort));
  // Without a deno.json next to the sources, the import map the entry resolves serves.
  if (config.protocol === "file:" && statOrNull(config)?.isFile) args.push("--config", config.pathname);
  return { command: Deno.execPath(), args: [...args, entry.href, json] };
}

/** Where children start: the stack and options, on which cores, profiled or not. */
type Place = { stack: Stack; opts: StartOptions; cpuAffinity?: number[]; profile?: "cpu" };

/** Spawns one child and waits for its READY line; returns its URL. */
async function spawnChild({ stack, opts, cpuAffinity, profile }: Place, name: string, spec: ChildSpec) {
  const inspectPort = profile ? freePort("127.0.0.1") : undefined;
  const { command, args } = childCommand(spec, inspectPort);
  const proc = stack.spawn(name, {
    name,
    command,
    args,
    // Our own processes start the runtime sampler themselves (child_main.ts).
    env: opts.runtime ? { [RUNTIME_DIR_ENV]: opts.runtime.dir } : undefined,
    stdinPiped: true,
    logFile: logFile(opts, name),
    cpuAffinity,
  }, inspectPort);
  const line = await proc.waitForStdoutLine(READY_PREFIX, CHILD_READY_TIMEOUT_MS);
  stack.listeningAtMs = performance.now(); // the READY line comes once the server listens
  return JSON.parse(line).url;
}

/** Sums the numeric counters `urls` answer (not `pid`); `client` trusts a self-signed target's CA. */
async function sumStats(urls: string[], client?: Deno.HttpClient): Promise<Record<string, number>> {
  const sum: Record<string, number> = {};
  const answers = await Promise.all(urls.map(async (url) => {
    try {
      const res = await fetch(url + STATS_PATH, { signal: AbortSignal.timeout(2000), client });
      return res.ok ? await res.json() : (await res.body?.cancel(), {});
    } catch {
      return {};
    }
  }));
  for (const answer of answers) {
    for (const [key, value] of Object.entries(answer)) {
      if (key !== "pid" && typeof value === "number") sum[key] = (sum[key] ?? 0) + value;
    }
  }
  return sum;
}

/** A TLS target's files (given, or made self-signed in its log or a temp folder) and what its edge serves. */
async function tlsFilesOf(stack: Stack, tls: ServeTls | undefined, opts: StartOptions, prefix?: string) {
  if (!tls) return { edge: {} };
  const files = await serveTlsFiles(tls, opts.logDir ?? await tempDir(stack, "loadlab-tls-"), prefix);
  return { files, edge: { tls: { certFile: files.certFile, keyFile: files.keyFile } } };
}

/** An HTTP/1.1 client trusting a self-signed target's CA (balancer stats are HTTP/1.1 only), or none. */
function statsClient(stack: Stack, tls: ServeTlsFiles | undefined): Deno.HttpClient | undefined {
  if (!tls?.caFile) return undefined;
  const client = Deno.createHttpClient({ caCerts: [Deno.readTextFileSync(tls.caFile)], http2: false });
  stack.push(() => Promise.resolve(client.close()));
  return client;
}

const DENO_RUNTIME = `deno ${Deno.version.deno}`;

type AppSpec = Omit<ChildSpec & { role: "app" }, "port">;

/** A built-in target's instances as its spec asks for them, and where they start. */
interface Instances extends Place {
  spec: BuiltinSpec;
  host: string;
  count: number;
  app: AppSpec;
  /** TLS where clients connect: on the one instance or each reuse-port instance, else on the balancer. */
  edge: { tls?: { certFile: string; keyFile: string } };
}

/** The URL the load is sent to, and the URLs whose counters make the target's stats (none: no stats). */
type Reached = { url: string; grpcUrl?: string; statsUrls: string[] };

async function startBuiltin(stack: Stack, spec: BuiltinSpec, opts: StartOptions): Promise<Started> {
  const redis = await startRedis(stack, spec.redisUrl, spec.redis ?? false, opts);
  const host = spec.host ?? "127.0.0.1";
  const auto = autoCores(navigator.hardwareConcurrency);
  const count = spec.instances === "auto" ? auto.instances : spec.instances ?? 1;
  const cpuAffinity = spec.cpuAffinity === "auto" ? auto.cpuAffinity : spec.cpuAffinity;
  if (spec.grpc && count !== 1) {
    throw new TargetError(
      `grpc: true with ${count} instances`,
      "the gRPC endpoints are served by one instance: drop instances (or set it to 1)",
    );
  }
  const { compress, cacheTtlSec, staticDir, cms } = spec;
  const app: AppSpec = { role: "app", host, watchStdin: true, compress, cacheTtlSec, staticDir, cms };
  if (redis) app.redisUrl = redis.url;
  // Behind the balancer the instances stay plain HTTP: TLS ends at the balancer, as at a load balancer.
  const { files: tls, edge } = await tlsFilesOf(stack, spec.tls, opts);
  const plan: Instances = { stack, opts, profile: spec.profile, spec, host, count, cpuAffinity, app, edge };
  const { url, statsUrls, grpcUrl } = count === 1
    ? await spawnOne(plan)
    : spec.balance === "reuse-port"
    ? await spawnReusePort(plan)
    : await spawnBalanced(plan);
  // Recorded when the spec asks for instances, so the report can compare 1 against N (cpu-sleep study).
  const info: TargetInfo = {
    kind: "builtin",
    runtime: DENO_RUNTIME,
    ...(spec.instances === undefined ? {} : { instances: count }),
  };
  const client = statsClient(stack, tls);
  return {
    url,
    redis,
    info,
    stats: statsUrls.length ? () => sumStats(statsUrls, client) : noStats,
    ...defined({ grpcUrl, caFile: tls?.caFile }),
  };
}

/** The plan's instances of `child`: the first is the target, the others are numbered from 2. */
function spawnInstances(plan: Instances, child: ChildSpec): Promise<string[]> {
  const names = [...Array(plan.count).keys()].map((i) => i === 0 ? "target" : `target#${i + 1}`);
  return Promise.all(names.map((name) => spawnChild(plan, name, child)));
}

async function spawnOne(plan: Instances): Promise<Reached> {
  const grpcPort = plan.spec.grpc ? freePort(plan.host) : undefined;
  const only = { ...plan.app, ...plan.edge, port: plan.spec.port ?? 0, ...defined({ grpcPort }) };
  const url = await spawnChild(plan, "target", only);
  const grpcUrl = grpcPort === undefined ? undefined : url.replace(/:\d+$/, `:${grpcPort}`);
  return { url, statsUrls: [url], ...defined({ grpcUrl }) };
}

/** Instances sharing one port, the kernel spreading the connections. */
async function spawnReusePort(plan: Instances): Promise<Reached> {
  const child = { ...plan.app, ...plan.edge, port: plan.spec.port || freePort(plan.host), reusePort: true };
  const urls = await spawnInstances(plan, child);
  // Reuse-port instances share one address, so no single one can be asked for its counters.
  return { url: urls[0], statsUrls: [] };
}

/** Instances on ports of their own behind the balancer, which is what the load is sent to. */
async function spawnBalanced(plan: Instances): Promise<Reached> {
  const upstreams = await spawnInstances(plan, { ...plan.app, port: 0 });
  const mode: BalanceMode = plan.spec.balance === "least-connections" ? "least-connections" : "round-robin";
  const balancer: ChildSpec = {
    role: "balancer",
    host: plan.host,
    port: plan.spec.port ?? 0,
    watchStdin: true,
    upstreams,
    mode,
    ...plan.edge,
  };
  const url = await spawnChild(plan, "balancer", balancer);
  return { url, statsUrls: [url, ...upstreams] };
}

async function startExternal(stack: Stack, spec: ExternalSpec, opts: StartOptions): Promise<Started> {
  const url = spec.url.replace(/\/+$/, "");
  const command = await startApp(stack, opts, {
    name: "external app",
    command: spec.command,
    args: spec.args ?? [],
    cwd: spec.cwd,
    env: spec.env,
    logFile: spec.logFile ?? logFile(opts, "external"),
    profile: spec.profile,
  }, { url, readyPath: spec.ready?.path, timeoutMs: spec.ready?.timeoutMs ?? 30_000 });
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
  const url = `http://${urlHost(host)}:${port}`;
  const command = await startApp(stack, opts, {
    name: `${spec.app} app`,
    command: run.command,
    args: run.args,
    cwd: run.cwd,
    env,
    logFile: logFile(opts, spec.app),
    cpuAffinity: spec.cpuAffinity,
    profile: spec.profile,
  }, { url, readyPath: "/json", timeoutMs: READY_TIMEOUT_MS });
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
  const { files: tls, edge } = await tlsFilesOf(stack, spec.tls, opts, "proxy-tls-");
  const proxy: ChildSpec = {
    role: "proxy",
    ...edge,
    host: spec.host ?? "127.0.0.1",
    port: spec.port ?? 0,
    watchStdin: true,
    upstream: upstreamUrl,
    ...upstreamTlsOf(spec, upstream),
    redisUrl: redis.url,
    cacheTtlSec: spec.cacheTtlSec,
    rateLimit: spec.rateLimit,
  };
  const url = await spawnChild({ stack, opts, ...spec }, "proxy", proxy);
  // The proxy is what the load hits: first for telemetry.
  stack.processes.unshift(stack.processes.pop()!);
  const info: TargetInfo = { kind: "proxy", runtime: DENO_RUNTIME, upstream: upstream?.info };
  // The upstream's counters (staleHits, cms*) are named apart from the proxy's (hits, misses, ...).
  const client = statsClient(stack, tls);
  const stats = async () => ({ ...await upstream?.stats(), ...await sumStats([url], client) });
  return { url, redis, info, stats, ...defined({ caFile: tls?.caFile }) };
}

/** The proxy's verification of an `https:` upstream: as given, else the CA of its self-signed one. */
function upstreamTlsOf(spec: ProxySpec, upstream: RunningTarget | null) {
  const caFile = spec.upstreamTls?.caFile ?? upstream?.caFile;
  if (caFile === undefined && !spec.upstreamTls?.insecure) return {};
  return { upstreamTls: { caFile, insecure: spec.upstreamTls?.insecure } };
}

/** Starts the target described by `spec`; throws TargetError (after cleaning up) when it cannot. */
export async function startTarget(spec: TargetSpec, opts: StartOptions = {}): Promise<RunningTarget> {
  const parsed = validate(targetSpecSchema, spec);
  if (!parsed.ok) {
    const problems = formatIssues(parsed.issues).join("; ");
    throw new TargetError(`invalid target: ${problems}`, "fix the target fields named above", {
      cause: parsed.error,
    });
  }
  const valid = parsed.data;
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
    processes: stack.processes,
    redisUrl: started.redis?.url,
    redisPid: started.redis?.pid,
    coldStart: coldStartOf(stack),
    ...(stack.inspected.length ? { inspected: stack.inspected } : {}),
    ...defined({ grpcUrl: started.grpcUrl, runtimeDir: opts.runtime?.dir, caFile: started.caFile }),
    stats: () => stopping ? Promise.resolve({}) : started.stats(),
    stop,
  };
}
