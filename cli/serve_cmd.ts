/**
 * @module
 * `loadlab serve`: a target standalone until Ctrl-C, for wrk, k6 or oha too; its flags and their target.
 */
import { UsageError } from "./usage_error.ts";
import { flag, type FlagTable, helpOf } from "./argv.ts";
import { type FlagValues, readFlags } from "./flag_values.ts";
import { findProgram } from "../system/path_lookup.ts";
import { isListenError } from "./dashboard/server.ts";
import { EXIT } from "./exit_codes.ts";
import { interruptSignal } from "./live.ts";
import { runCommand } from "./command_errors.ts";
import { notAFolder } from "../scenarios/schema/files.ts";
import { readOpenFileLimit } from "../system/descriptors.ts";
import { maxSocketsUnder } from "../runner/socket_budget.ts";
import { type CpuProfiling, startCpuProfiles } from "../targets/inspector.ts";
import { parseRateLimit } from "../targets/proxy/rate_limit.ts";
import type { RateLimit, RunningTarget, TargetSpec } from "../targets/spec.ts";
import { startTarget } from "../targets/start.ts";
import { ENDPOINTS } from "../targets/app/app.ts";
import { serveGrpcTarget } from "../targets/app/grpc_endpoints.ts";
import { idleWarning, isCpuProfile, summarizeProfile } from "../results/cpu_profile.ts";
import { assertWritable, osErrorText, OutputError, writeTextAtomic } from "../system/output_file.ts";

/** Client connections the open-file limit leaves room for: EMFILE looks like a slow server. */
function openFilesLine(spec: TargetSpec, limit = readOpenFileLimit()): string | undefined {
  if (limit === null || !Number.isFinite(limit)) return undefined;
  const relayed = spec.kind === "proxy" || (spec.kind === "builtin" && (spec.instances ?? 1) !== 1);
  const clients = Math.floor(maxSocketsUnder(limit) / (relayed ? 2 : 1));
  return `  open files: limit ${limit} per process, room for about ${clients} client connections at once ` +
    `(raise it with ulimit -n N before loadlab serve)`;
}

function describe(target: RunningTarget, spec: TargetSpec): string {
  const lines = [`loadlab serve: listening on ${target.url}`];
  if (spec.kind === "proxy") {
    const upstream = "url" in spec.upstream ? spec.upstream.url : "the built-in target";
    const what = [
      spec.cacheTtlSec ? `Redis cache (TTL ${spec.cacheTtlSec} s)` : "",
      spec.rateLimit ? "rate limit" : "",
    ];
    lines.push(`  proxy with ${what.filter(Boolean).join(" and ") || "no cache"} in front of ${upstream}`);
  }
  if (spec.kind === "builtin" || (spec.kind === "proxy" && !("url" in spec.upstream))) {
    lines.push("  endpoints:");
    for (const [path, what] of ENDPOINTS) lines.push(`    ${path.padEnd(40)} ${what}`);
  }
  if (target.caFile) {
    const h3 = spec.kind === "proxy" || (spec.kind === "builtin" && (spec.instances ?? 1) === 1)
      ? `; HTTP/3 on UDP port ${new URL(target.url).port}`
      : "";
    lines.push(`  TLS: self-signed, verify with --cacert ${target.caFile}${h3}`);
  }
  lines.push(`  processes: ${target.processes.map((p) => `${p.name} (pid ${p.pid})`).join(", ")}`);
  lines.push(
    target.redisUrl ? `  redis: ${target.redisUrl}` : "  redis: none (/redis/:key answers 503; use --redis)",
  );
  const files = openFilesLine(spec);
  if (files) lines.push(files);
  lines.push("  press Ctrl-C to stop");
  return lines.join("\n");
}

export function runServeCommand(argv: string[]): Promise<number> {
  return runCommand("serve", async () => {
    const flags = parseFlags(argv);
    const spec = serveSpecFromFlags(flags);
    checkListen(flags, "host" in spec ? spec.host : undefined);
    const profileDir = flags.has("profile") ? flags.text("profile") || "." : undefined;
    if (profileDir !== undefined) {
      const why = notAFolder(profileDir);
      if (why) {
        throw new UsageError(`--profile=${profileDir}: ${why}; give a folder for the .cpuprofile files`);
      }
      // Checked now: the profiles are written only at Ctrl-C, and an unwritable folder would lose them.
      await assertWritable(profileDir).catch((err) => {
        throw new OutputError(`--profile=${profileDir}: cannot write: ${osErrorText(err)}`, { cause: err });
      });
    }
    const grpcPort = flags.has("grpc-port") ? flags.wholeNumber("grpc-port", 0, 65535) : undefined;
    const target = await startTarget(spec), hostname = flags.nonEmpty("host") ?? "127.0.0.1";
    const grpc = grpcPort === undefined ? null : await serveGrpcTarget({ hostname, port: grpcPort });
    if (grpc !== null) {
      console.log(
        `loadlab serve: gRPC on grpc://${hostname}:${grpc.port} ` +
          "(loadlab.target.Target: Echo, Sleep, Cpu, Stream; targets/app/target.proto)",
      );
    }
    await serveUntilStopped(spec, target, profileDir).finally(() => grpc?.close());
    return EXIT.ok;
  });
}

/** Prints where `target` listens and keeps it up until Ctrl-C or SIGTERM (profiling it into `profileDir`). */
async function serveUntilStopped(
  spec: TargetSpec,
  target: RunningTarget,
  profileDir?: string,
): Promise<void> {
  let profiling: CpuProfiling | null = null;
  try {
    if (profileDir !== undefined) profiling = await startCpuProfiles(target.inspected ?? []);
  } catch (err) {
    await target.stop();
    throw err;
  }
  console.log(describe(target, spec));
  if (profiling) console.log(`  CPU profile: from now until Ctrl-C, written to ${profileDir}/`);
  // A second Ctrl-C quits at once (the targets' processes die with loadlab: targets/process.ts).
  const { signal } = interruptSignal();
  await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
  if (profiling) await saveProfiles(profiling, profileDir!).finally(() => target.stop());
  await target.stop();
}

/** Stops the profiler and writes each process's profile, with its top functions on the terminal. */
async function saveProfiles(profiling: CpuProfiling, dir: string): Promise<void> {
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  for (const taken of await profiling.stop()) {
    if ("error" in taken || !isCpuProfile(taken.profile)) {
      console.log(`  no CPU profile of ${taken.name}: ${"error" in taken ? taken.error : "not a profile"}`);
      continue;
    }
    const file = `${dir}/serve-${taken.name.replace(/[^\w.-]/g, "_")}-${stamp}.cpuprofile`;
    await writeTextAtomic(file, JSON.stringify(taken.profile));
    const s = summarizeProfile(taken.profile);
    const top = [...s.top].sort((a, b) => b.selfUs - a.selfUs).slice(0, 5)
      .map((t) => `${s.frames[t.frame].name} ${(t.selfUs / 1000).toFixed(1)} ms`);
    console.log(`  CPU profile of ${taken.name}: ${file} (top self time: ${top.join(", ")})`);
    const warning = idleWarning(s, taken.runtime, taken.children);
    if (warning !== null) console.log(`  ${warning}`);
  }
}

const SERVE_TABLE: FlagTable = [
  flag("--host H", { example: "127.0.0.1" }, ["listen on H (default 127.0.0.1)"]),
  flag("--port N", { example: "8080" }, ["listen on port N (default 0: a free one)"]),
  flag("--instances N", { example: "2" }, ["processes of the built-in target, behind a balancer (1..64)"]),
  flag("--balance B", { example: "least-connections" }, [
    "the balancer's pick: round-robin or least-connections",
  ]),
  flag("--reuse-port", {}, ["the instances share one port; the kernel spreads connections"]),
  flag("--compress[=gzip|brotli]", { example: "gzip" }, [
    "compress answers (bodies under 1 KiB and images left alone)",
  ]),
  flag("--cache-ttl SEC", { example: "60" }, ["an in-process response cache whose entries live SEC seconds"]),
  flag("--static-dir DIR", { example: "./public" }, ["serve DIR's files under /static/"]),
  flag("--redis URL", { example: "redis://127.0.0.1:6379" }, [
    "the Redis of /redis/:key (default: a private redis-server when one is on PATH)",
  ]),
  flag("--proxy UPSTREAM_URL", { example: "http://127.0.0.1:3000" }, [
    "the Redis proxy in front of an app already running at this http:// URL",
  ]),
  flag("--redis-cache-ttl SEC", { example: "60" }, [
    "the Redis caching proxy in front, entries living SEC seconds",
  ]),
  flag("--rate-limit N/WINDOW", { example: "100/1s" }, ["the proxy's rate limit, e.g. 100/1s or 10/500ms"]),
  flag("--tls", {}, [
    "HTTPS with a throwaway self-signed certificate (its CA file printed),",
    "and HTTP/3 on the UDP port of the same number",
  ]),
  flag("--profile[=DIR]", { example: "profiles" }, [
    "a CPU profile of the target's processes until Ctrl-C,",
    "as DIR/*.cpuprofile (default .)",
  ]),
  flag("--grpc-port N", { example: "50051" }, [
    "also serve the gRPC endpoints (Echo, Sleep, Cpu, Stream; 0: a free port)",
  ]),
  flag("-h, --help", {}, ["this help"]),
];

const SERVE_USAGE =
  `usage: loadlab serve [flags]: the built-in target, or a Redis proxy in front of it or of an app

${helpOf(SERVE_TABLE, { flagAt: 2, textAt: 27 })}

Targets, the balancer and the proxy: docs/TARGETS.md.`;

/** Tokenizes the arguments after `serve` (`-h`: `HelpRequested`); it takes no positionals. */
export function parseFlags(argv: string[]): FlagValues {
  const flags = readFlags(argv, SERVE_TABLE, "serve", SERVE_USAGE);
  const [extra] = flags.raw.positionals;
  if (extra !== undefined) {
    throw new UsageError(`unexpected argument ${JSON.stringify(extra)}; see loadlab serve --help`);
  }
  return flags;
}

const BUILTIN_ONLY = ["compress", "cache-ttl", "instances", "balance", "reuse-port", "static-dir"];

/** The target `loadlab serve` should start for these flags. */
export function serveSpecFromFlags(flags: FlagValues): TargetSpec {
  const host = flags.nonEmpty("host");
  const port = flags.wholeNumber("port", 0, 65535);
  const redisUrl = redisUrlOf(flags);
  const compress = flags.has("compress") && flags.text("compress") === ""
    ? true
    : flags.choice("compress", ["gzip", "brotli"] as const);
  const balance = flags.has("reuse-port")
    ? "reuse-port"
    : flags.choice("balance", ["round-robin", "least-connections"] as const);
  const rateLimit = rateLimitOf(flags);
  const proxyTtl = flags.seconds("redis-cache-ttl");
  const profile = flags.has("profile") ? { profile: "cpu" as const } : {};
  const builtin: TargetSpec = {
    kind: "builtin",
    ...profile,
    compress,
    cacheTtlSec: flags.seconds("cache-ttl"),
    instances: flags.wholeNumber("instances", 1, 64),
    balance,
    staticDir: staticDirOf(flags),
    redisUrl,
    // /redis/:key should work out of the box when a redis-server can be started.
    redis: redisUrl !== undefined || findProgram("redis-server") !== null,
  };
  const upstreamUrl = upstreamUrlOf(flags);
  const tls = flags.has("tls") ? { tls: "self-signed" as const } : {};
  if (upstreamUrl === undefined && proxyTtl === undefined && !rateLimit) {
    return { ...builtin, ...tls, host, port };
  }
  return {
    kind: "proxy",
    ...profile,
    ...tls,
    upstream: upstreamUrl ? { url: upstreamUrl } : builtin,
    cacheTtlSec: proxyTtl,
    rateLimit,
    redisUrl,
    host,
    port,
  };
}

/** `--rate-limit N/WINDOW`: the Redis proxy's limit, checked here so a typo names the form it takes. */
function rateLimitOf(flags: FlagValues): RateLimit | undefined {
  const rateText = flags.text("rate-limit");
  const rateLimit = rateText === undefined ? undefined : parseRateLimit(rateText);
  if (rateLimit === null) {
    throw new UsageError(`--rate-limit ${JSON.stringify(rateText)}: must look like 100/1s or 10/500ms`);
  }
  return rateLimit;
}

/** `--proxy`: the http:// URL of an app already running, which the built-in target's flags cannot join. */
function upstreamUrlOf(flags: FlagValues): string | undefined {
  const upstreamUrl = flags.text("proxy");
  if (upstreamUrl !== undefined && !/^http:\/\/[^/]+/.test(upstreamUrl)) {
    throw new UsageError(
      `--proxy ${JSON.stringify(upstreamUrl)}: needs an http:// URL of the upstream app, ` +
        "e.g. --proxy http://127.0.0.1:3000",
    );
  }
  if (upstreamUrl !== undefined) {
    const clash = BUILTIN_ONLY.find((name) => flags.has(name));
    if (clash) {
      throw new UsageError(`--${clash} applies to the built-in target, not to --proxy; drop one of them`);
    }
  }
  return upstreamUrl;
}

/** `--redis`: a redis:// URL, checked here so a typo is bad input (2), not a target that failed (3). */
function redisUrlOf(flags: FlagValues): string | undefined {
  const text = flags.text("redis");
  if (text === undefined || /^rediss?:\/\/[^/\s]+/.test(text)) return text;
  throw new UsageError(
    `--redis ${JSON.stringify(text)}: not a redis:// URL; e.g. --redis redis://127.0.0.1:6379`,
  );
}

/** `--static-dir`: an existing folder, or the target would answer 404 to every /static request. */
function staticDirOf(flags: FlagValues): string | undefined {
  const dir = flags.path("static-dir");
  const why = dir === undefined ? undefined : notAFolder(dir);
  if (why) throw new UsageError(`--static-dir ${JSON.stringify(dir)}: ${why}; give a folder of files`);
  return dir;
}

/** Refuses, by a throwaway listen, a `--host` or a `--port`/`--grpc-port` this machine cannot listen on. */
function checkListen(flags: FlagValues, host: string | undefined): void {
  const hostname = host ?? "127.0.0.1";
  const refusal = (port: number): string | null => {
    try {
      Deno.listen({ hostname, port }).close();
      return null;
    } catch (err) {
      if (!isListenError(err)) throw err;
      return err.message;
    }
  };
  const why = host === undefined ? null : refusal(0);
  if (why !== null) {
    throw new UsageError(
      `--host ${host}: cannot listen there (${why}); use an address of this machine, e.g. --host 127.0.0.1`,
    );
  }
  for (const flag of ["port", "grpc-port"] as const) {
    const port = flags.wholeNumber(flag, 0, 65535) ?? 0;
    const taken = port === 0 || (flag === "port" && flags.has("reuse-port")) ? null : refusal(port);
    if (taken === null) continue;
    throw new UsageError(
      `--${flag} ${port}: ${hostname}:${port} is in use (${taken}); give a free port, or --${flag} 0`,
    );
  }
}

if (import.meta.main) Deno.exit(await runServeCommand(Deno.args));
