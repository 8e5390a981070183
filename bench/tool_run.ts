/**
 * @module
 * Running one benchmark tool and reading what it cost, shared by every bench (bench/engine.ts, bench/h2.ts,
 * bench/soak.ts): the `taskset` pinning (target on CPU 0, generators on CPU 1), the tool's run with a
 * timeout, its CPU time from this process's reaped-children times (start-up included), the target's CPU
 * time meanwhile from /proc (its whole process tree), and both per request.
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

/**
 * Runs one tool to its end: its req/s, its CPU seconds (start-up included), and with `targetPid` the
 * CPU seconds the target's processes spent meanwhile (null when they cannot be read).
 */
export async function runTool(
  run: ToolRun,
  pin: string[],
  timeoutMs: number,
  targetPid: number | null = null,
): Promise<{ rps: number; cpuSec: number | null; targetCpuSec: number | null }> {
  const targetBefore = targetPid === null ? null : treeCpuSec(targetPid);
  const cpuBefore = childrenCpuSec();
  const argv = [...pin, ...run.argv];
  const child = new Deno.Command(argv[0], { args: argv.slice(1), stdout: "piped", stderr: "piped" }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  try {
    const out = await child.output();
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
    };
  } finally {
    clearTimeout(timer);
    await run.cleanup?.().catch(() => {});
  }
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
