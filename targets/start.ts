/**
 * @module
 * `startTarget`: turns a `TargetSpec` into running processes and one handle to stop them all. Built-in
 * instances, the balancer and the proxy are this program started again with a child spec (see
 * `child_main.ts`), so each can use its own core; external apps are spawned as given. Start-up is all
 * or nothing: when any step fails, everything already started is stopped before the error is thrown.
 */
import type { BalanceMode } from "./balancer/balancer.ts";
import { type ChildSpec, READY_PREFIX } from "./child_main.ts";
import { TargetError } from "./errors.ts";
import { startExample } from "./example_start.ts";
import {
  coldStartOf,
  logFile,
  noStats,
  runtimeDirOf,
  Stack,
  type Started,
  type StartOptions,
  startRedis,
} from "./start_stack.ts";
import { formatIssues, validate } from "../validation/mod.ts";
import { freePort, waitForPort } from "../system/ports.ts";
import { ManagedProcess, pollReady } from "./process.ts";
import { type ServeTlsFiles, serveTlsFiles } from "./tls_cert.ts";
import { withPreload } from "./runtime_preload.ts";
import { RUNTIME_DIR_ENV } from "./runtime_sampler.ts";
import { inspectFlag } from "./inspector.ts";
import {
  argsWithInspect,
  autoCores,
  type BuiltinSpec,
  type ExternalSpec,
  profileBlocker,
  type ProxySpec,
  type RunningTarget,
  type ServeTls,
  STATS_PATH,
  type TargetInfo,
  type TargetSpec,
  targetSpecSchema,
} from "./spec.ts";

const CHILD_READY_TIMEOUT_MS = 30_000;
const DENO_RUNTIME = `deno ${Deno.version.deno}`;

/**
 * Sums the numeric counters that `urls` answer (an instance's `pid` is not a counter); `client` trusts
 * a self-signed target's CA.
 */
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

/**
 * How to run `child_main.ts`: the compiled binary's hidden subcommand, or `deno run` on the file (with
 * the inspector on `inspectPort` when given; a compiled binary takes no runtime flags, so it cannot).
 */
export function childCommand(spec: ChildSpec, inspectPort?: number): { command: string; args: string[] } {
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
  try {
    if (config.protocol === "file:" && Deno.statSync(config).isFile) args.push("--config", config.pathname);
  } catch { /* no deno.json next to the sources: rely on the import map the entry resolves */ }
  return { command: Deno.execPath(), args: [...args, entry.href, json] };
}

/** Spawns one child process and waits for its READY line; returns its URL. */
async function spawnChild(
  stack: Stack,
  name: string,
  spec: ChildSpec,
  opts: StartOptions,
  cpuAffinity?: number[],
  profile?: "cpu",
): Promise<string> {
  const inspectPort = profile ? freePort("127.0.0.1") : undefined;
  const { command, args } = childCommand(spec, inspectPort);
  stack.markSpawn();
  const proc = ManagedProcess.spawn({
    name,
    command,
    args,
    // Our own processes start the runtime sampler themselves (child_main.ts): no preload flag needed.
    env: opts.runtime ? { [RUNTIME_DIR_ENV]: opts.runtime.dir } : undefined,
    stdinPiped: true,
    logFile: logFile(opts, name),
    cpuAffinity,
  });
  stack.push(() => proc.stop());
  stack.processes.push({ name, pid: proc.pid });
  if (inspectPort !== undefined) stack.inspected.push({ name, port: inspectPort, pid: proc.pid });
  const line = await proc.waitForStdoutLine(READY_PREFIX, CHILD_READY_TIMEOUT_MS);
  stack.markListening(); // the READY line comes once the server listens
  return JSON.parse(line).url;
}

async function startBuiltin(stack: Stack, spec: BuiltinSpec, opts: StartOptions): Promise<Started> {
  const redis = await startRedis(stack, spec.redisUrl, spec.redis ?? false, opts);
  const host = spec.host ?? "127.0.0.1";
  const auto = autoCores(navigator.hardwareConcurrency);
  const instances = spec.instances === "auto" ? auto.instances : spec.instances ?? 1;
  const cpuAffinity = spec.cpuAffinity === "auto" ? auto.cpuAffinity : spec.cpuAffinity;
  const app = {
    role: "app" as const,
    host,
    watchStdin: true,
    compress: spec.compress,
    cacheTtlSec: spec.cacheTtlSec,
    staticDir: spec.staticDir,
    redisUrl: redis?.url,
    cms: spec.cms,
  };
  const name = (i: number) => i === 0 ? "target" : `target#${i + 1}`;
  const tls = await tlsFilesOf(stack, spec.tls, opts);
  // Behind the balancer the instances stay plain HTTP: TLS ends at the balancer, as at a load balancer.
  const edge = tls ? { tls: { certFile: tls.certFile, keyFile: tls.keyFile } } : {};
  let url: string;
  // Reuse-port instances share one address, so no single one can be asked for its counters.
  let statsUrls: string[] = [];
  if (instances === 1) {
    const only = { ...app, ...edge, port: spec.port ?? 0 };
    url = await spawnChild(stack, "target", only, opts, cpuAffinity, spec.profile);
    statsUrls = [url];
  } else if (spec.balance === "reuse-port") {
    const port = spec.port || freePort(host);
    const urls = await Promise.all(
      [...Array(instances).keys()].map((i) =>
        spawnChild(
          stack,
          name(i),
          { ...app, ...edge, port, reusePort: true },
          opts,
          cpuAffinity,
          spec.profile,
        )
      ),
    );
    url = urls[0];
  } else {
    const upstreams = await Promise.all(
      [...Array(instances).keys()].map((i) =>
        spawnChild(stack, name(i), { ...app, port: 0 }, opts, cpuAffinity, spec.profile)
      ),
    );
    const mode: BalanceMode = spec.balance === "least-connections" ? "least-connections" : "round-robin";
    const balancer: ChildSpec = {
      role: "balancer",
      host,
      port: spec.port ?? 0,
      watchStdin: true,
      upstreams,
      mode,
      ...edge,
    };
    url = await spawnChild(stack, "balancer", balancer, opts, cpuAffinity, spec.profile);
    statsUrls = [url, ...upstreams];
  }
  // Recorded when the spec asks for instances, so the report can compare 1 against N (cpu-sleep study).
  const info: TargetInfo = {
    kind: "builtin",
    runtime: DENO_RUNTIME,
    ...(spec.instances === undefined ? {} : { instances }),
  };
  const client = statsClient(stack, tls);
  return {
    url,
    redis,
    info,
    stats: statsUrls.length ? () => sumStats(statsUrls, client) : noStats,
    ...(tls?.caFile ? { caFile: tls.caFile } : {}),
  };
}

async function startExternal(stack: Stack, spec: ExternalSpec, opts: StartOptions): Promise<Started> {
  const inspectPort = spec.profile ? freePort("127.0.0.1") : undefined;
  const args = inspectPort === undefined
    ? spec.args
    : argsWithInspect(spec.command, spec.args ?? [], inspectFlag(inspectPort));
  if (!args && inspectPort !== undefined) {
    throw new TargetError(`external app: ${profileBlocker(spec)}`, "drop profile: cpu from this target");
  }
  const run = opts.runtime
    ? withPreload(opts.runtime, spec.command, args ?? [], spec.env)
    : { args: args ?? undefined, env: spec.env };
  stack.markSpawn();
  const proc = ManagedProcess.spawn({
    name: "external app",
    command: spec.command,
    args: run.args,
    cwd: spec.cwd,
    env: run.env,
    logFile: spec.logFile ?? logFile(opts, "external"),
  });
  stack.push(() => proc.stop());
  stack.processes.push({ name: "target", pid: proc.pid });
  if (inspectPort !== undefined) stack.inspected.push({ name: "target", port: inspectPort, pid: proc.pid });
  const url = spec.url.replace(/\/+$/, "");
  const timeoutMs = spec.ready?.timeoutMs ?? 30_000;
  const readyPath = spec.ready?.path;
  const { hostname, port, protocol } = new URL(url);
  const portNumber = Number(port || (protocol === "https:" ? 443 : 80));
  const host = hostname.replace(/^\[|\]$/g, "");
  await pollReady(proc, async () => {
    if (stack.listeningAtMs === null && await waitForPort(host, portNumber, 1)) stack.markListening();
    if (!readyPath) return stack.listeningAtMs !== null;
    const res = await fetch(url + readyPath, { signal: AbortSignal.timeout(1000) });
    await res.body?.cancel();
    if (stack.listeningAtMs === null) stack.markListening(); // it answered: it listened by now at the latest
    return res.ok;
  }, timeoutMs);
  const command = [spec.command, ...spec.args ?? []].join(" ");
  return { url, redis: null, info: { kind: "external", command }, stats: noStats };
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
  // The proxy is what the load hits: list it first for telemetry.
  stack.processes.unshift(stack.processes.pop()!);
  const info: TargetInfo = { kind: "proxy", runtime: DENO_RUNTIME, upstream: upstream?.info };
  // The upstream's counters (staleHits, cms*) are named apart from the proxy's (hits, misses, ...).
  const client = statsClient(stack, tls);
  const stats = async () => ({ ...await upstream?.stats(), ...await sumStats([url], client) });
  return { url, redis, info, stats, ...(tls?.caFile ? { caFile: tls.caFile } : {}) };
}

/** The proxy's verification of an `https:` upstream: as given, else the CA of a self-signed one it started. */
function upstreamTlsOf(
  spec: ProxySpec,
  upstream: RunningTarget | null,
): Pick<ChildSpec & { role: "proxy" }, "upstreamTls"> {
  const caFile = spec.upstreamTls?.caFile ?? upstream?.caFile;
  if (caFile === undefined && !spec.upstreamTls?.insecure) return {};
  return { upstreamTls: { caFile, insecure: spec.upstreamTls?.insecure } };
}

/** A TLS target's files: given, or made self-signed into its log folder (a temp folder without one). */
async function tlsFilesOf(
  stack: Stack,
  tls: ServeTls | undefined,
  opts: StartOptions,
  prefix?: string,
): Promise<ServeTlsFiles | undefined> {
  if (!tls) return undefined;
  let dir = opts.logDir;
  if (dir === undefined) {
    const temp = dir = await Deno.makeTempDir({ prefix: "loadlab-tls-" });
    stack.push(() => Deno.remove(temp, { recursive: true }).catch(() => {}));
  }
  return await serveTlsFiles(tls, dir, prefix);
}

/**
 * An HTTP client trusting a self-signed target's CA, closed with the target; undefined otherwise. HTTP/1.1
 * only: the balancer answers its stats path on HTTP/1.1 and relays an h2 connection to an instance.
 */
function statsClient(stack: Stack, tls: ServeTlsFiles | undefined): Deno.HttpClient | undefined {
  if (!tls?.caFile) return undefined;
  const client = Deno.createHttpClient({ caCerts: [Deno.readTextFileSync(tls.caFile)], http2: false });
  stack.push(() => Promise.resolve(client.close()));
  return client;
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
