/**
 * @module
 * What every way of starting a target shares (start.ts, example_start.ts): options, the `Stack` of what
 * was started (stopped in reverse on failure; marks the cold start), a starter's result, log paths, the
 * Redis a target needs and the runtime samplers' folder.
 */
import { type RedisHandle, resolveRedis } from "./redis.ts";
import { makeRuntimeDir, type RuntimeDir } from "./runtime_preload.ts";
import type { InspectedProcess } from "./inspector.ts";
import type { RunningTarget, TargetInfo, TargetProcess, TargetSpec } from "./spec.ts";

/** How a target is started, whatever its kind. */
export interface StartOptions {
  /** Aborting stops the target (e.g. on Ctrl-C); an already aborted signal fails the start. */
  signal?: AbortSignal;
  /** Where process logs go (`<name>.log`); without it output is drained and only its tail kept. */
  logDir?: string;
  /** Set by startTarget: the runtime samplers' folder and preloads (targets/runtime_preload.ts). */
  runtime?: RuntimeDir;
}

/** What a start function hands to `handle`. */
export interface Started {
  url: string;
  /** Where a built-in target with `grpc: true` serves its gRPC endpoints. */
  grpcUrl?: string;
  redis: RedisHandle | null;
  info: TargetInfo;
  /** Cumulative counters of the target's processes ({} when it has none). */
  stats: () => Promise<Record<string, number>>;
  /** A self-signed HTTPS target's CA file. */
  caFile?: string;
}

/** The `stats` of a target whose processes keep no counters. */
export const noStats = (): Promise<Record<string, number>> => Promise.resolve({});

/** Everything started so far, stopped in reverse order. */
export class Stack {
  #stops: Array<() => Promise<void>> = [];
  processes: TargetProcess[] = [];
  /** Cold start (`performance.now()`): the first target process spawned, the last one listening. */
  spawnedAtMs: number | null = null;
  listeningAtMs: number | null = null;
  /** Call right before spawning a target process (the first call counts). */
  markSpawn(): void {
    this.spawnedAtMs ??= performance.now();
  }
  /** Call when a target process accepts connections (the last call counts). */
  markListening(): void {
    this.listeningAtMs = performance.now();
  }
  /** Processes started with the inspector open (`profile: cpu`). */
  inspected: InspectedProcess[] = [];
  push(stop: () => Promise<void>): void {
    this.#stops.push(stop);
  }
  async stopAll(): Promise<void> {
    for (const stop of this.#stops.splice(0).reverse()) await stop().catch(() => {});
  }
}

/** Where the log of process `name` goes (`<logDir>/<name>.log`), or nowhere without a log folder. */
export function logFile(opts: StartOptions, name: string): string | undefined {
  return opts.logDir ? `${opts.logDir}/${name.replace(/[^\w.-]/g, "_")}.log` : undefined;
}

/** The Redis a target was given (`url`) or needs (a local redis-server started), stopped with the stack. */
export async function startRedis(stack: Stack, url: string | undefined, needed: boolean, opts: StartOptions) {
  const redis: RedisHandle | null = await resolveRedis(url, needed, {
    logFile: logFile(opts, "redis-server"),
  });
  if (redis) stack.push(() => redis.stop());
  return redis;
}

/**
 * The runtime samplers' folder: `runtime/` in the log folder, where experiments read it; undefined when off.
 * Without a log folder (`loadlab serve`, benchmarks) nobody reads it, so only `runtimeTelemetry: true`
 * turns it on there (in a temp folder removed at stop).
 */
export async function runtimeDirOf(
  stack: Stack,
  spec: TargetSpec,
  opts: StartOptions,
): Promise<RuntimeDir | undefined> {
  if (spec.runtimeTelemetry === false) return undefined;
  if (opts.logDir !== undefined) return await makeRuntimeDir(`${opts.logDir}/runtime`);
  if (spec.runtimeTelemetry !== true) return undefined;
  const temp = await Deno.makeTempDir({ prefix: "loadlab-runtime-" });
  stack.push(() => Deno.remove(temp, { recursive: true }).catch(() => {}));
  return await makeRuntimeDir(temp);
}

/** Spawn to listening and to ready in ms, from the stack's marks; undefined when nothing was spawned. */
export function coldStartOf(stack: Stack): RunningTarget["coldStart"] {
  const spawnAtMs = stack.spawnedAtMs;
  if (spawnAtMs === null) return undefined;
  const since = (ms: number) => Math.round((ms - spawnAtMs) * 10) / 10;
  return {
    spawnAtMs,
    listeningMs: stack.listeningAtMs === null ? null : since(stack.listeningAtMs),
    readyMs: since(performance.now()),
  };
}
