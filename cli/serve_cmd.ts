/**
 * @module
 * `loadlab serve`: runs a target standalone until Ctrl-C, so users can also point wrk, k6 or oha at it.
 * Without `--proxy` it serves the built-in target (one or several instances); `--redis-cache-ttl` or
 * `--rate-limit` put the Redis proxy in front of it, and `--proxy <url>` puts that proxy in front of an
 * app that is already running. Flag problems print one line naming the flag and the fix, exit code 2.
 */
import { findProgram } from "../targets/process.ts";
import { UsageError } from "./usage_error.ts";
import {
  ENDPOINTS,
  parseRateLimit,
  type RunningTarget,
  startTarget,
  TargetError,
  type TargetSpec,
} from "../targets/mod.ts";

export const SERVE_USAGE = `usage: loadlab serve [--host 127.0.0.1] [--port 0] [--instances N]
  [--balance round-robin|least-connections] [--reuse-port] [--compress[=gzip|brotli]] [--cache-ttl SEC]
  [--static-dir DIR] [--redis URL] [--proxy UPSTREAM_URL] [--redis-cache-ttl SEC] [--rate-limit N/WINDOW]`;

const VALUE_FLAGS = new Set([
  "host",
  "port",
  "instances",
  "balance",
  "cache-ttl",
  "static-dir",
  "redis",
  "proxy",
  "redis-cache-ttl",
  "rate-limit",
]);
const BOOLEAN_FLAGS = new Set(["reuse-port", "help"]);

/** `--name value`, `--name=value` and booleans into a map; unknown flags are errors. */
export function parseFlags(argv: string[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(argv[i]);
    if (!m) throw new UsageError(`unexpected argument '${argv[i]}': flags start with --, see --help`);
    const [, name, inline] = m;
    if (name === "compress") flags.set(name, inline ?? "true");
    else if (BOOLEAN_FLAGS.has(name)) flags.set(name, "true");
    else if (VALUE_FLAGS.has(name)) {
      const value = inline ?? argv[++i];
      if (value === undefined || value.startsWith("--")) throw new UsageError(`--${name} needs a value`);
      flags.set(name, value);
    } else throw new UsageError(`unknown flag --${name}; run 'loadlab serve --help' for the list`);
  }
  return flags;
}

function number(flags: Map<string, string>, name: string, min: number, integer = true): number | undefined {
  const raw = flags.get(name);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || (integer && !Number.isInteger(n))) {
    throw new UsageError(`--${name} must be ${integer ? "an integer" : "a number"} >= ${min}, got '${raw}'`);
  }
  return n;
}

/** The target `loadlab serve` should start for these flags. */
export function serveSpecFromFlags(flags: Map<string, string>): TargetSpec {
  const host = flags.get("host");
  const port = number(flags, "port", 0);
  if (port !== undefined && port > 65535) throw new UsageError(`--port must be 0..65535, got ${port}`);
  const redisUrl = flags.get("redis");
  const compress = flags.get("compress");
  if (compress !== undefined && !["true", "gzip", "brotli"].includes(compress)) {
    throw new UsageError(`--compress takes no value or =gzip or =brotli, got '${compress}'`);
  }
  const balance = flags.has("reuse-port") ? "reuse-port" : flags.get("balance");
  if (balance !== undefined && !["round-robin", "least-connections", "reuse-port"].includes(balance)) {
    throw new UsageError(`--balance must be round-robin or least-connections, got '${balance}'`);
  }
  const rateText = flags.get("rate-limit");
  const rateLimit = rateText === undefined ? undefined : parseRateLimit(rateText);
  if (rateLimit === null) {
    throw new UsageError(`--rate-limit must look like 100/1s or 10/500ms, got '${rateText}'`);
  }
  const proxyTtl = number(flags, "redis-cache-ttl", 0, false);
  const builtin: TargetSpec = {
    kind: "builtin",
    compress: compress === undefined ? undefined : compress === "true" ? true : compress as "gzip" | "brotli",
    cacheTtlSec: number(flags, "cache-ttl", 0, false),
    instances: number(flags, "instances", 1),
    balance: balance as "round-robin" | "least-connections" | "reuse-port" | undefined,
    staticDir: flags.get("static-dir"),
    redisUrl,
    // /redis/:key should work out of the box when a redis-server can be started.
    redis: redisUrl !== undefined || findProgram("redis-server") !== null,
  };
  const upstreamUrl = flags.get("proxy");
  if (upstreamUrl !== undefined && !/^http:\/\/[^/]+/.test(upstreamUrl)) {
    throw new UsageError(`--proxy needs an http:// URL of the upstream app, got '${upstreamUrl}'`);
  }
  if (upstreamUrl !== undefined) {
    const builtinOnly = ["compress", "cache-ttl", "instances", "balance", "reuse-port", "static-dir"];
    const clash = builtinOnly.find((name) => flags.has(name));
    if (clash) {
      throw new UsageError(`--${clash} applies to the built-in target, not to --proxy; drop one of them`);
    }
  }
  if (upstreamUrl === undefined && proxyTtl === undefined && !rateLimit) return { ...builtin, host, port };
  return {
    kind: "proxy",
    upstream: upstreamUrl ? { url: upstreamUrl } : builtin,
    cacheTtlSec: proxyTtl,
    rateLimit,
    redisUrl,
    host,
    port,
  };
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
  lines.push(`  processes: ${target.processes.map((p) => `${p.name} (pid ${p.pid})`).join(", ")}`);
  lines.push(
    target.redisUrl ? `  redis: ${target.redisUrl}` : "  redis: none (/redis/:key answers 503; use --redis)",
  );
  lines.push("  press Ctrl-C to stop");
  return lines.join("\n");
}

/** Runs `loadlab serve` with `argv` (the arguments after `serve`); resolves to the exit code. */
export async function runServeCommand(argv: string[]): Promise<number> {
  let spec: TargetSpec;
  try {
    const flags = parseFlags(argv);
    if (flags.has("help")) {
      console.log(SERVE_USAGE);
      return 0;
    }
    spec = serveSpecFromFlags(flags);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`loadlab serve: ${err.message}`);
    return 2;
  }
  let target: RunningTarget;
  try {
    target = await startTarget(spec);
  } catch (err) {
    if (!(err instanceof TargetError)) throw err;
    console.error(`loadlab serve: ${err.message}`);
    return 1;
  }
  console.log(describe(target, spec));
  await new Promise<void>((resolve) => {
    const onSignal = () => {
      Deno.removeSignalListener("SIGINT", onSignal);
      Deno.removeSignalListener("SIGTERM", onSignal);
      resolve();
    };
    Deno.addSignalListener("SIGINT", onSignal);
    Deno.addSignalListener("SIGTERM", onSignal);
  });
  console.log("loadlab serve: stopping");
  await target.stop();
  return 0;
}

if (import.meta.main) Deno.exit(await runServeCommand(Deno.args));
