/**
 * @module
 * Redis for targets: a client that fails fast instead of queueing (a cache that is down costs a request
 * nothing), and a private `redis-server` with persistence off when no `--redis` URL is given.
 */
import type { createClient } from "redis";
import { TargetError } from "./errors.ts";
import { freePort } from "../system/ports.ts";
import { ManagedProcess, pollReady, RUN_ID } from "./process.ts";
import { findProgram, programOutput } from "../system/path_lookup.ts";
import { withTimeout } from "../system/sleep.ts";
import { processStartTicks } from "./process_group.ts";

export type RedisClient = ReturnType<typeof createClient>;

/** A Redis a target uses; `stop` shuts down the server only when loadlab started it. */
export interface RedisHandle {
  url: string;
  pid?: number;
  stop(): Promise<void>;
}

/** A client that never queues commands while down and reconnects each second; TargetError if first fails. */
export async function connectRedis(url: string, timeoutMs = 3000): Promise<RedisClient> {
  let connected = false;
  // Loaded by the first connection: a run with no Redis keeps its 5 MB out of memory.
  const { createClient } = await import("redis");
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: timeoutMs,
      // Before the first connection a refusal is a setup error; after it, an outage to ride out.
      reconnectStrategy: (retries, cause) => connected ? Math.min(50 * 2 ** retries, 1000) : cause,
    },
  });
  // Without a listener 'error' events would crash the process; failures surface per command.
  client.on("error", () => {});
  try {
    await withTimeout(client.connect().then(() => connected = true), timeoutMs, "connect timed out");
    return client;
  } catch (err) {
    await client.disconnect().catch(() => {});
    throw new TargetError(
      `cannot connect to Redis at ${url}: ${(err as Error).message}`,
      "check the --redis URL and that the server is running, or omit --redis to let loadlab start one",
      { cause: err },
    );
  }
}

/** Starts `redis-server` on a free loopback port, no RDB snapshots, no AOF. */
export async function startRedisServer(opts: { logFile?: string } = {}) {
  const program = findProgram("redis-server");
  if (!program) {
    throw new TargetError(
      "this target needs Redis, but no --redis URL was given and redis-server is not on PATH",
      "pass --redis redis://host:port (redisUrl in an experiment), or install redis-server (apt install redis-server)",
    );
  }
  const port = freePort();
  const dir = await Deno.makeTempDir({ prefix: REDIS_DIR_PREFIX });
  await Deno.writeTextFile(`${dir}/${OWNER_FILE}`, JSON.stringify(owner()));
  await removeStaleRedisDirs(dir);
  const proc = ManagedProcess.spawn({
    name: "redis-server",
    command: program,
    args: ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir]
      .concat(keepEnvironArgs(program)),
    logFile: opts.logFile,
  });
  const stop = async () => {
    await proc.stop();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  };
  try {
    await pollReady(proc, () => Promise.resolve(proc.stdoutTail.text.includes("Ready to accept")), 10_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url: `redis://127.0.0.1:${port}`, pid: proc.pid, stop };
}

const REDIS_DIR_PREFIX = "loadlab-redis-";
/** Which loadlab made a Redis temp folder (pid, start time, run id), to tell a stale one. */
const OWNER_FILE = "loadlab-owner.json";

/** This loadlab's pid, start (clock ticks since boot: with the pid, names one process for good), run id. */
function owner() {
  return { pid: Deno.pid, startTicks: processStartTicks(Deno.pid), runId: RUN_ID };
}

/** Removes Redis temp folders beside `ours` whose loadlab (pid and start time) is gone. */
async function removeStaleRedisDirs(ours: string): Promise<void> {
  if (Deno.build.os !== "linux") return; // liveness is read from /proc
  const parent = ours.slice(0, ours.lastIndexOf("/")) || "/";
  try {
    for await (const entry of Deno.readDir(parent)) {
      const dir = `${parent}/${entry.name}`;
      if (!entry.isDirectory || !entry.name.startsWith(REDIS_DIR_PREFIX) || dir === ours) continue;
      const found = await Deno.readTextFile(`${dir}/${OWNER_FILE}`).then(JSON.parse, () => null);
      if (typeof found?.pid !== "number" || typeof found?.runId !== "string") continue;
      const alive = found.startTicks === null
        ? processStartTicks(found.pid) !== null
        : processStartTicks(found.pid) === found.startTicks;
      if (!alive) await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  } catch { /* an unreadable temp folder: nothing to clean */ }
}

/** `set-proc-title no` where Redis knows it (6.2+): a title rewrite erases LOADLAB_RUN_ID in environ. */
function keepEnvironArgs(program: string): string[] {
  const version = /v=(\d+)\.(\d+)/.exec(programOutput(program, ["--version"]) ?? "");
  const [major, minor] = version ? [Number(version[1]), Number(version[2])] : [0, 0];
  return major > 6 || (major === 6 && minor >= 2) ? ["--set-proc-title", "no"] : [];
}

/** The given URL (checked with PING), else a private server when `needed`, else none. */
export async function resolveRedis(
  url: string | undefined,
  needed: boolean,
  opts: { logFile?: string } = {},
): Promise<RedisHandle | null> {
  if (url) {
    const client = await connectRedis(url);
    await client.disconnect().catch(() => {});
    return { url, stop: () => Promise.resolve() };
  }
  return needed ? await startRedisServer(opts) : null;
}

/** Keys key:0..key:99 with 64-byte values, as the single-key GET of docs/studies/frameworks.md. */
export async function seedRedis(client: RedisClient): Promise<void> {
  const pairs: [string, string][] = [];
  for (let i = 0; i < 100; i++) pairs.push([`key:${i}`, `value-${i}-`.padEnd(64, "x")]);
  await client.mSet(pairs);
}
