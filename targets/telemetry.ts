/**
 * @module
 * A target's telemetry per interval: CPU, RSS, run-queue wait, Redis INFO, runtime samplers.
 */
import type { TelemetrySeries } from "../results/mod.ts";
import { connectRedis, type RedisClient } from "./redis.ts";
import type { RunningTarget, TargetProcess } from "./spec.ts";
import type { SamplerLine } from "./runtime_sampler.ts";
import { readProcSample, readRunQueueWait } from "../system/proc_stat.ts";
import { listeningPid } from "../system/ports.ts";
import { statOrNull } from "../system/path_lookup.ts";
import { readTextAt } from "../system/read_capped.ts";
import { defined } from "../validation/defined.ts";

/** The fields of `INFO` we plot; counters are totals since Redis started. */
export function parseRedisInfo(info: string) {
  const get = (name: string) => Number(new RegExp(`^${name}:(\\d+)`, "m").exec(info)?.[1] ?? 0);
  return {
    commands: get("total_commands_processed"),
    hits: get("keyspace_hits"),
    misses: get("keyspace_misses"),
    evicted: get("evicted_keys"),
    usedMemoryBytes: get("used_memory"),
    connectedClients: get("connected_clients"),
  };
}

type RedisInfo = ReturnType<typeof parseRedisInfo>;

/** The id of the newest slow log entry (ids only grow, unlike the capped length); -1 when empty. */
export function newestSlowlogId(reply: unknown): number {
  const first = Array.isArray(reply) ? reply[0] : undefined;
  const id = Array.isArray(first) ? Number(first[0]) : Number.NaN;
  return Number.isFinite(id) ? id : -1;
}

type Sample = TelemetrySeries["samples"][number];

/** One process's CPU, RSS and run-queue wait per interval; for Redis, INFO counters as rates too. */
class TargetSeries {
  readonly series: TelemetrySeries;
  #last: { cpuSec: number; wait: { waitSec: number; slices: number } | null; atMs: number } | null = null;
  #client: Promise<RedisClient | null> | undefined;
  #lastInfo: RedisInfo & { slowlogId: number; atMs: number } | null = null;
  #busy = false;
  constructor(name: string, kind: "process" | "redis", readonly pid?: number, redisUrl?: string) {
    this.series = { name, kind, samples: [] };
    this.#client = redisUrl ? connectRedis(redisUrl, 1000).catch(() => null) : undefined;
    this.#sampleProcess(0, performance.now(), false);
  }
  #sampleProcess(tMs: number, nowMs: number, record = true): Sample | null {
    const proc = this.pid ? readProcSample(this.pid) : null;
    if (!proc || !this.pid) return null;
    const last = this.#last;
    const wait = readRunQueueWait(this.pid);
    this.#last = { cpuSec: proc.cpuSec, wait, atMs: nowMs };
    if (!record || !last) return null;
    const wallSec = (nowMs - last.atMs) / 1000;
    const cpuPercent = ((proc.cpuSec - last.cpuSec) / wallSec) * 100;
    const sample: Sample = { tMs, cpuPercent: Math.round(cpuPercent * 10) / 10, rssBytes: proc.rssBytes };
    if (wait !== null && last.wait !== null) {
      const waitSec = wait.waitSec - last.wait.waitSec, slices = wait.slices - last.wait.slices;
      sample.runQueueWaitPct = Math.round((waitSec / wallSec) * 1000) / 10;
      if (slices > 0) sample.runQueueWakeWaitMs = Math.round((waitSec / slices) * 1e5) / 100;
    }
    this.series.samples.push(sample);
    return sample;
  }
  /** A baseline reads Redis only: the process's baseline is taken at construction. */
  async sample(tMs: number, nowMs: number, baseline = false): Promise<void> {
    const procSample = baseline ? null : this.#sampleProcess(tMs, nowMs);
    const client = await this.#client;
    if (!client || this.#busy) return;
    this.#busy = true;
    try {
      const slowlogId = newestSlowlogId(await client.sendCommand(["SLOWLOG", "GET", "1"]));
      const info = parseRedisInfo(await client.info());
      const last = this.#lastInfo;
      this.#lastInfo = { ...info, slowlogId, atMs: nowMs };
      if (!last) return;
      const sample = procSample ?? { tMs };
      // Minus two: our own SLOWLOG and INFO commands are not load.
      const commandsPerSec = (info.commands - last.commands - 2) / ((nowMs - last.atMs) / 1000);
      sample.opsPerSec = Math.max(0, Math.round(commandsPerSec));
      sample.hits = info.hits - last.hits;
      sample.misses = info.misses - last.misses;
      sample.evictedKeys = Math.max(0, info.evicted - last.evicted);
      sample.usedMemoryBytes = info.usedMemoryBytes;
      sample.connectedClients = info.connectedClients;
      sample.slowlogAdded = Math.max(0, slowlogId - last.slowlogId);
      if (!procSample) this.series.samples.push(sample);
    } catch {
      /* Redis down: no sample for this interval */
    } finally {
      this.#busy = false;
    }
  }
  close(): Promise<void> | undefined {
    return this.#client?.then((client) => client?.disconnect()).catch(() => {});
  }
}

/**
 * Samples the target's processes and Redis every `intervalMs` until `stop()`, which returns the series.
 * Await `ready` before load: Redis counters start from a baseline read, which earlier requests would join.
 */
export function startTelemetry(
  target: Pick<RunningTarget, "processes" | "redisUrl" | "redisPid" | "runtimeDir">,
  opts: { intervalMs: number; startMs?: number },
): { ready: Promise<void>; stop(): TelemetrySeries[]; peek(): TelemetrySeries[] } {
  const startMs = opts.startMs ?? performance.now();
  const series = target.processes.map((p) => new TargetSeries(p.name, "process", p.pid));
  const redis = target.redisUrl ? new TargetSeries("redis", "redis", target.redisPid, target.redisUrl) : null;
  if (redis) series.push(redis);
  const runtime = target.runtimeDir
    ? new RuntimeReader(target.runtimeDir, target.processes, Date.now() - (performance.now() - startMs))
    : null;
  const ready = redis ? redis.sample(0, startMs, true) : Promise.resolve();
  const timer = setInterval(() => {
    const nowMs = performance.now();
    const tMs = Math.round(nowMs - startMs);
    for (const s of series) void s.sample(tMs, nowMs);
    runtime?.read();
  }, opts.intervalMs);
  const all = () => [...series.map((s) => s.series), ...(runtime?.series ?? [])];
  return {
    ready,
    /** The series as they stand, for the live dashboard. */
    peek: all,
    stop() {
      clearInterval(timer);
      void redis?.close();
      runtime?.read();
      return all();
    },
  };
}

/** The local process behind a loopback URL, sampled as a started target's; slow: reads every pid's fds. */
export async function loopbackListener(url: string): Promise<{ processes: TargetProcess[] } | undefined> {
  const u = URL.canParse(url) ? new URL(url) : null;
  if (!u || !(u.hostname === "localhost" || u.hostname === "[::1]" || u.hostname.startsWith("127."))) return;
  const port = Number(u.port || (u.protocol === "https:" || u.protocol === "wss:" ? 443 : 80));
  const pid = await listeningPid(port);
  return pid === null ? undefined : { processes: [{ name: "target", pid }] };
}

/** One sampler line as a telemetry sample at `tMs` of the run's axis. */
function runtimeSample(line: SamplerLine, tMs: number): Sample {
  const gc = line.gc &&
    Object.fromEntries(Object.entries(line.gc).map(([k, [count, ms]]) => [k, { count, ms }]));
  const loop = { loopP50Ms: line.p50 ?? 0, loopP99Ms: line.p99 ?? 0, loopMaxMs: line.max ?? 0 };
  return { tMs, ...loop, ...defined({ heapUsedBytes: line.heap, gc }) };
}

/** Tails every sampler file of one target's runtime folder. */
class RuntimeReader {
  #offsets = new Map<string, number>();
  #series = new Map<number, TelemetrySeries>();

  constructor(readonly dir: string, readonly processes: TargetProcess[], readonly startEpochMs: number) {
    for (const file of this.#files()) this.#offsets.set(file, statOrNull(file)?.size ?? 0);
  }

  /** The series so far, in the target's process order, then unnamed pids. */
  get series(): TelemetrySeries[] {
    return [...this.#series.values()];
  }

  /** Reads every line written since the last read. Never throws: a missing folder reads as nothing. */
  read(): void {
    for (const file of this.#files()) {
      const text = readFrom(file, this.#offsets.get(file) ?? 0);
      if (!text) continue;
      this.#offsets.set(file, (this.#offsets.get(file) ?? 0) + new TextEncoder().encode(text).length);
      for (const raw of text.split("\n")) if (raw) this.#add(raw);
    }
  }

  #add(raw: string): void {
    let line: SamplerLine;
    try {
      line = JSON.parse(raw);
    } catch {
      return;
    }
    if (typeof line.t !== "number" || typeof line.pid !== "number" || line.t < this.startEpochMs) return;
    let series = this.#series.get(line.pid);
    if (!series) {
      const name = this.processes.find((p) => p.pid === line.pid)?.name ?? `pid ${line.pid}`;
      series = { name, kind: "runtime", runtime: line.runtime, samples: [] };
      this.#series.set(line.pid, series);
    }
    if (line.error) series.error = line.error;
    else series.samples.push(runtimeSample(line, line.t - this.startEpochMs));
  }

  #files(): string[] {
    try {
      return [...Deno.readDirSync(this.dir)]
        .filter((e) => e.isFile && e.name.endsWith(".jsonl"))
        .map((e) => `${this.dir}/${e.name}`);
    } catch {
      return [];
    }
  }
}

/** The text of `path` from byte `offset` to its last newline ("" when there is none). */
function readFrom(path: string, offset: number): string {
  try {
    using file = Deno.openSync(path);
    const text = readTextAt(file, offset, Math.max(0, file.statSync().size - offset));
    // A line not yet ended (perhaps a character cut in two) is read whole next time.
    return text.slice(0, text.lastIndexOf("\n") + 1);
  } catch {
    return "";
  }
}
