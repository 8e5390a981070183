/**
 * @module
 * What every way of starting a target shares: options, the `Stack` of what was started (stopped in
 * reverse on failure; marks the cold start), log paths, the Redis and the runtime samplers' folder.
 */
import { type RedisHandle, resolveRedis } from "./redis.ts";
import { makeRuntimeDir, type RuntimeDir, withPreload } from "./runtime_preload.ts";
import { type InspectedProcess, inspectFlag } from "./inspector.ts";
import {
  argsWithInspect,
  profileBlocker,
  type RunningTarget,
  type TargetInfo,
  type TargetProcess,
  type TargetSpec,
} from "./spec.ts";
import { TargetError } from "./errors.ts";
import { ManagedProcess, pollReady, type SpawnOptions } from "./process.ts";
import { freePort, waitForPort } from "../system/ports.ts";

export interface StartOptions {
  /** Aborting stops the target; an already aborted signal fails the start. */
  signal?: AbortSignal;
  /** Without it output is drained and only its tail kept. */
  logDir?: string;
  /** Set by startTarget (targets/runtime_preload.ts). */
  runtime?: RuntimeDir;
}

export interface Started {
  url: string;
  grpcUrl?: string;
  redis: RedisHandle | null;
  info: TargetInfo;
  /** {} when it has none. */
  stats: () => Promise<Record<string, number>>;
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
  /** Right before spawning a target process (the first call counts). */
  markSpawn(): void {
    this.spawnedAtMs ??= performance.now();
  }
  /** When a target process accepts connections (the last call counts). */
  markListening(): void {
    this.listeningAtMs = performance.now();
  }
  inspected: InspectedProcess[] = [];
  push(stop: () => Promise<void>): void {
    this.#stops.push(stop);
  }
  async stopAll(): Promise<void> {
    for (const stop of this.#stops.splice(0).reverse()) await stop().catch(() => {});
  }
}

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
 * Starts an app loadlab does not make (external, example) as the target, the runtime samplers preloaded
 * and, with `profile`, its inspector open: ready once `url`'s port accepts and, with `readyPath`, GET
 * `url + readyPath` answers 2xx.
 */
export async function startApp(
  stack: Stack,
  opts: StartOptions,
  { profile, ...spawn }: SpawnOptions & { args: string[]; profile?: "cpu" },
  ready: { url: string; readyPath?: string; timeoutMs: number },
): Promise<void> {
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
  stack.markSpawn();
  const proc = ManagedProcess.spawn({ ...spawn, args: run.args, env: run.env });
  stack.push(() => proc.stop());
  stack.processes.push({ name: "target", pid: proc.pid });
  if (inspectPort !== undefined) stack.inspected.push({ name: "target", port: inspectPort, pid: proc.pid });
  const { hostname, port, protocol } = new URL(ready.url);
  const portNumber = Number(port || (protocol === "https:" ? 443 : 80));
  const host = hostname.replace(/^\[|\]$/g, "");
  await pollReady(proc, async () => {
    if (stack.listeningAtMs === null && await waitForPort(host, portNumber, 1)) stack.markListening();
    if (!ready.readyPath) return stack.listeningAtMs !== null;
    const res = await fetch(ready.url + ready.readyPath, { signal: AbortSignal.timeout(1000) });
    await res.body?.cancel();
    if (stack.listeningAtMs === null) stack.markListening(); // it answered: it listened by now at the latest
    return res.ok;
  }, ready.timeoutMs);
}

/**
 * The runtime samplers' folder: `runtime/` in the log folder; without one, a temp folder only for
 * `runtimeTelemetry: true`; undefined when off.
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
