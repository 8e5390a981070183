/**
 * @module
 * Running one benchmark tool and reading what it cost, shared by every bench (bench/engine.ts, bench/h2.ts,
 * bench/soak.ts, bench/ws.ts, bench/grpc.ts): the `taskset` pinning (target on CPU 0, generators on CPU
 * 1), the tool's run (with a timeout, or `timed` to its end for its output), its CPU time from this
 * process's reaped-children times (start-up included), the target's CPU time meanwhile from /proc (its
 * whole process tree), and both per request. Where the target counts what it served (the bench's nginx),
 * also the target's rate over a window in the middle of the run: the same measure for every tool, free of
 * each tool's start-up (a JIT's warm-up, the first handshakes) and of how each tool counts and times its
 * own run.
 */
import type { ToolRun } from "./tools.ts";
import { findProgram } from "../system/path_lookup.ts";
import { readProcStat, treeCpuSec } from "../system/proc_stat.ts";

/** `taskset` prefixes for target and generators, or none with the reason. */
export async function pinning(): Promise<{ target: string[]; generator: string[]; note: string }> {
  const taskset = findProgram("taskset");
  if (!taskset) return { target: [], generator: [], note: "taskset not found: running UNPINNED" };
  if (navigator.hardwareConcurrency < 2) {
    return { target: [], generator: [], note: "1 CPU: running UNPINNED" };
  }
  const ok = await new Deno.Command(taskset, { args: ["-c", "1", "true"], stdout: "null", stderr: "null" })
    .output().then((o) => o.success, () => false);
  if (!ok) return { target: [], generator: [], note: "CPU 1 not available to taskset: running UNPINNED" };
  return {
    target: [taskset, "-c", "0"],
    generator: [taskset, "-c", "1"],
    note: "target pinned to CPU 0, generators to CPU 1",
  };
}

/** User + system CPU seconds of this process's reaped children (cutime + cstime), null off Linux. */
export function childrenCpuSec(): number | null {
  const stat = readProcStat("self");
  return stat === null ? null : stat.childrenUserSec + stat.childrenSystemSec;
}

/** Runs `argv`, returns its stdout and the CPU seconds it used (reaped-children delta). */
export async function timed(argv: string[]): Promise<{ stdout: string; cpuSec: number }> {
  const before = childrenCpuSec() ?? 0;
  const out = await new Deno.Command(argv[0], { args: argv.slice(1), stdout: "piped", stderr: "piped" })
    .output();
  const cpuSec = (childrenCpuSec() ?? 0) - before;
  if (!out.success) {
    throw new Error(`${argv.join(" ")} failed: ${new TextDecoder().decode(out.stderr).slice(-400)}`);
  }
  return { stdout: new TextDecoder().decode(out.stdout), cpuSec };
}

/** What the target is and how it counts: `pid` for its CPU time, `requestsServed` for its own count. */
export interface BenchTargetProbe {
  pid: number | null;
  requestsServed?: () => Promise<number | null>;
}

/** What one run of a tool measured. */
export interface ToolMeasure {
  rps: number;
  cpuSec: number | null;
  targetCpuSec: number | null;
  /** The target's own count of requests served per second over `steadyWindow`; null when not counted. */
  targetSteadyRps: number | null;
}

/**
 * The middle of a run of `durationSec` seconds, in ms after the tool's start: from a quarter of the run
 * (at least 1 s, past every tool's start-up and first handshakes) to half a second before its nominal
 * end (every tool still loading: a JIT-ed tool starts its clock after its start-up). Null for runs under
 * 3 s, too short for a window that means anything.
 */
export function steadyWindow(durationSec: number): { fromMs: number; toMs: number } | null {
  if (durationSec < 3) return null;
  return { fromMs: Math.max(1_000, durationSec * 250), toMs: durationSec * 1_000 - 500 };
}

/**
 * Runs one tool to its end: its req/s, its CPU seconds (start-up included), and for a `target` the CPU
 * seconds its processes spent meanwhile (null when they cannot be read) and, when it counts what it
 * served, its steady rate (see `steadyWindow`).
 */
export async function runTool(
  run: ToolRun,
  pin: string[],
  timeoutMs: number,
  target: BenchTargetProbe = { pid: null },
  durationSec = 0,
): Promise<ToolMeasure> {
  const targetPid = target.pid;
  const targetBefore = targetPid === null ? null : treeCpuSec(targetPid);
  const cpuBefore = childrenCpuSec();
  const argv = [...pin, ...run.argv];
  const child = new Deno.Command(argv[0], { args: argv.slice(1), stdout: "piped", stderr: "piped" }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  let exited = false;
  const steady = countOver(target.requestsServed, steadyWindow(durationSec), () => exited);
  try {
    const out = await child.output();
    exited = true;
    const stdout = new TextDecoder().decode(out.stdout);
    if (!out.success) {
      const stderr = new TextDecoder().decode(out.stderr).trim().split("\n").slice(-2).join(" | ");
      throw new Error(
        `exit ${out.code}${out.signal ? ` (${out.signal})` : ""}: ${stderr || stdout.slice(-200)}`,
      );
    }
    const cpuAfter = childrenCpuSec();
    const targetAfter = targetPid === null ? null : treeCpuSec(targetPid);
    const rps = await run.parseRps(stdout);
    if (!Number.isFinite(rps)) throw new Error(`no req/s in its output: ${stdout.slice(0, 200)}`);
    return {
      rps,
      cpuSec: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
      targetCpuSec: targetBefore === null || targetAfter === null ? null : targetAfter - targetBefore,
      targetSteadyRps: await steady,
    };
  } finally {
    exited = true;
    clearTimeout(timer);
    await steady;
    await run.cleanup?.().catch(() => {});
  }
}

/**
 * Requests per second by `count` between the window's two instants (ms after now); null without a count
 * or a window, when a reading fails, or when the tool ended before the window did (`ended()`).
 */
export async function countOver(
  count: (() => Promise<number | null>) | undefined,
  window: { fromMs: number; toMs: number } | null,
  ended: () => boolean,
): Promise<number | null> {
  if (count === undefined || window === null) return null;
  const startedMs = performance.now();
  const sleepUntil = (ms: number) =>
    new Promise((resolve) => setTimeout(resolve, Math.max(0, startedMs + ms - performance.now())));
  // A reading's instant is the middle of its request.
  const read = async () => {
    const askedMs = performance.now();
    const n = await count();
    return { n, atMs: (askedMs + performance.now()) / 2 };
  };
  await sleepUntil(window.fromMs);
  if (ended()) return null;
  const first = await read();
  await sleepUntil(window.toMs);
  if (ended() || first.n === null) return null;
  const last = await read();
  if (last.n === null || ended()) return null;
  // Each reading counts itself: the second one is in the difference, the first one is not.
  return (last.n - first.n - 1) / ((last.atMs - first.atMs) / 1_000);
}

/** CPU per request of the tool and of the target, and how busy the target was, from one run's totals. */
export function perRequest(
  rps: number,
  durationSec: number,
  cpuSec: number | null,
  targetCpuSec: number | null,
): { cpuUsPerRequest: number | null; targetCpuUsPerRequest: number | null; targetBusyPct: number | null } {
  const requests = rps * durationSec;
  const us = (sec: number | null) => sec === null || requests <= 0 ? null : (sec * 1e6) / requests;
  return {
    cpuUsPerRequest: us(cpuSec),
    targetCpuUsPerRequest: us(targetCpuSec),
    targetBusyPct: targetCpuSec === null ? null : (targetCpuSec / durationSec) * 100,
  };
}

/**
 * Runs the bench module `moduleUrl` again as `--child PLAN` under the generator's `taskset` prefix, so
 * the measuring process (and its load workers) sits on the generator's core with the `loadlab` task's V8
 * flags (measured as users run it), and returns the JSON of
 * its last stdout line (what the child measured). Its stderr stays on the terminal.
 */
export async function measureInPinnedChild<T>(
  moduleUrl: string,
  pinGenerator: readonly string[],
  plan: unknown,
): Promise<T> {
  const script = new URL(moduleUrl).pathname;
  const argv = [...pinGenerator, Deno.execPath(), "run", "-A", ...await loadlabV8Flags(), script, "--child"];
  const out = await new Deno.Command(argv[0], {
    args: [...argv.slice(1), JSON.stringify(plan)],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`the measuring process failed (exit ${out.code})`);
  return JSON.parse(new TextDecoder().decode(out.stdout).trim().split("\n").at(-1)!) as T;
}

/** The `--v8-flags=...` of deno.json's `loadlab` task: loadlab is measured as users run it. */
export async function loadlabV8Flags(): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));
  return String(config.tasks.loadlab).split(/\s+/).filter((arg) => arg.startsWith("--v8-flags="));
}
