/**
 * @module
 * Runs inside a Node or Deno target: event-loop delay, GC pauses (Node) and heap, a JSON line per tick to
 * `<LOADLAB_RUNTIME_DIR>/<pid>.jsonl`. Injected as source text: no imports; never throws or holds a process.
 */
import * as perfHooks from "node:perf_hooks";
import * as fs from "node:fs";
import proc from "node:process";

/** Set in the target's environment by targets/runtime_preload.ts. */
export const RUNTIME_DIR_ENV = "LOADLAB_RUNTIME_DIR";

interface SamplerHost {
  perfHooks: {
    PerformanceObserver: new (
      cb: (list: { getEntries(): unknown[] }) => void,
    ) => { observe(o: unknown): void };
  };
  fs: {
    openSync(path: string, flags: string | number, mode?: number): number;
    writeSync(fd: number, text: string): unknown;
    constants?: Record<string, number>;
  };
  proc: { pid: number; env: Record<string, string | undefined>; memoryUsage(): { heapUsed: number } };
}

/** A tick, or the one error that stopped the sampler. */
export interface SamplerLine {
  /** Epoch ms at the end of the tick. */
  t: number;
  pid: number;
  runtime: "node" | "deno";
  /** Ms, from `n` timer firings. */
  n?: number;
  p50?: number;
  p99?: number;
  max?: number;
  heap?: number;
  /** By kind: [count, total ms]. */
  gc?: Record<string, [number, number]>;
  error?: string;
}

interface SamplerState {
  host: SamplerHost;
  isDeno: boolean;
  /** -1 until open. */
  fd: number;
  /** Nothing is sampled or written after it. */
  stopped: boolean;
  delaysMs: number[];
  /** Null where none are delivered (Deno). */
  gc: Record<string, [number, number]> | null;
}

function runtimeSampler(host: SamplerHost): void {
  const g = globalThis as any;
  const isDeno = typeof g.Deno !== "undefined";
  const state: SamplerState = { host, isDeno, fd: -1, stopped: false, delaysMs: [], gc: null };
  try {
    const dir = host.proc.env.LOADLAB_RUNTIME_DIR;
    // Once per process: Deno also honours NODE_OPTIONS' --require, so a `deno run` gets both preloads.
    if (!dir || g.__loadlabRuntimeSampler) return;
    g.__loadlabRuntimeSampler = true;
    const tickMs = Number(host.proc.env.LOADLAB_RUNTIME_TICK_MS) || 250;
    const resolutionMs = 10;
    state.fd = openSamplerFile(host, dir);
    probeLoopDelay(state, resolutionMs);
    if (!isDeno) observeGc(state);
    unrefTimer(state, setTimeout(() => writeTick(state, tickMs), tickMs));
  } catch (err) {
    stopSampler(state, err);
  }
}

/** Opens `<dir>/<pid>.jsonl`; pids are predictable, so a planted symlink or FIFO is refused (O_NOFOLLOW). */
function openSamplerFile(host: SamplerHost, dir: string): number {
  const c = host.fs.constants ?? {};
  const flags = typeof c.O_NOFOLLOW === "number"
    ? c.O_WRONLY | c.O_APPEND | c.O_CREAT | c.O_NOFOLLOW | (c.O_NONBLOCK ?? 0)
    : "wx";
  return host.fs.openSync(`${dir}/${host.proc.pid}.jsonl`, flags, 0o644);
}

/** Stops at the first error and says so once: in its file when open, else on stderr. */
function stopSampler(state: SamplerState, err: unknown): void {
  if (state.stopped) return;
  state.stopped = true;
  const message = err instanceof Error ? err.message : String(err);
  try {
    if (state.fd >= 0) {
      const line = {
        t: Date.now(),
        pid: state.host.proc.pid,
        runtime: state.isDeno ? "deno" : "node",
        error: message,
      };
      state.host.fs.writeSync(state.fd, JSON.stringify(line) + "\n");
    } else console.error(`loadlab runtime sampler off: ${message}`);
  } catch { /* nowhere left to say it */ }
}

function unrefTimer(state: SamplerState, timer: unknown): void {
  if (timer && typeof timer === "object" && "unref" in timer) (timer as { unref(): void }).unref();
  else if (state.isDeno) (globalThis as any).Deno.unrefTimer(timer);
}

/** Records how late each firing of a `resolutionMs` timer is. */
function probeLoopDelay(state: SamplerState, resolutionMs: number): void {
  let expected = performance.now() + resolutionMs;
  const probe = () => {
    if (state.stopped) return;
    const now = performance.now();
    state.delaysMs.push(Math.max(0, now - expected));
    expected = now + resolutionMs;
    unrefTimer(state, setTimeout(probe, resolutionMs));
  };
  unrefTimer(state, setTimeout(probe, resolutionMs));
}

type GcEntry = { duration: number; kind?: number; detail?: { kind?: number } };

function observeGc(state: SamplerState): void {
  state.gc = {};
  const kinds: Record<number, string> = {
    1: "minor",
    2: "major",
    4: "major",
    8: "incremental",
    16: "weakcb",
  };
  new state.host.perfHooks.PerformanceObserver((list) => {
    for (const e of list.getEntries() as GcEntry[]) {
      const kind = kinds[e.detail?.kind ?? e.kind ?? 0] ?? "other";
      const slot = state.gc![kind] ??= [0, 0];
      slot[0]++;
      slot[1] += e.duration;
    }
  }).observe({ entryTypes: ["gc"] });
}

/** Writes the tick's line and schedules the next; the first error stops the sampler. */
function writeTick(state: SamplerState, tickMs: number): void {
  if (state.stopped) return;
  try {
    const round = (ms: number) => Math.round(ms * 100) / 100;
    const sorted = state.delaysMs.sort((a, b) => a - b);
    state.delaysMs = [];
    const at = (q: number) =>
      sorted.length ? round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]) : 0;
    const line: SamplerLine = {
      t: Date.now(),
      pid: state.host.proc.pid,
      runtime: state.isDeno ? "deno" : "node",
      n: sorted.length,
      p50: at(0.5),
      p99: at(0.99),
      max: sorted.length ? round(sorted[sorted.length - 1]) : 0,
      heap: state.host.proc.memoryUsage().heapUsed,
    };
    if (state.gc) {
      for (const slot of Object.values(state.gc)) slot[1] = round(slot[1]);
      line.gc = state.gc;
      state.gc = {};
    }
    state.host.fs.writeSync(state.fd, JSON.stringify(line) + "\n");
    unrefTimer(state, setTimeout(() => writeTick(state, tickMs), tickMs));
  } catch (err) {
    stopSampler(state, err);
  }
}

/** The sampler as script text, its functions by their source, ending in a call to `runtimeSampler`. */
export function samplerSource(): string {
  return [runtimeSampler, openSamplerFile, stopSampler, unrefTimer, probeLoopDelay, observeGc, writeTick]
    .map((part) => part.toString()).join("\n");
}

/** Samples this process (targets/child_main.ts) when the folder is set. */
export function sampleThisProcess(): void {
  runtimeSampler({ perfHooks, fs, proc });
}
