/**
 * @module
 * The host's CPU as Linux counts it for every process: the busy and total time of all cores since boot
 * (`/proc/stat`'s `cpu` line, in clock ticks) and how long some runnable task waited for a core
 * (`/proc/pressure/cpu`, `some total`, in microseconds). runner/stats/host_cpu.ts takes what a run
 * records from two readings. Null where a file cannot be read (not Linux, a kernel without pressure
 * accounting).
 */
import { CLOCK_TICKS_PER_SEC } from "./proc_stat.ts";

/**
 * Busy and total CPU seconds of all cores since boot (idle and iowait are not busy), and how many cores
 * the host has (its `cpuN` lines: the counters' cores, whatever this process's affinity allows it).
 */
export function parseCpuLine(text: string): { busySec: number; totalSec: number; cores: number } | null {
  const line = text.split("\n").find((l) => l.startsWith("cpu "));
  if (line === undefined) return null;
  // user nice system idle iowait irq softirq steal (guest time is already in user and nice).
  const f = line.trim().split(/\s+/).slice(1, 9).map(Number);
  if (f.length < 4 || f.some((x) => !Number.isFinite(x))) return null;
  const total = f.reduce((a, b) => a + b, 0);
  const idle = f[3] + (f[4] ?? 0);
  const cores = text.match(/^cpu\d+ /gm)?.length ?? 1;
  return { busySec: (total - idle) / CLOCK_TICKS_PER_SEC, totalSec: total / CLOCK_TICKS_PER_SEC, cores };
}

/** The host's busy and total CPU seconds now, or null where `/proc/stat` cannot be read. */
export function readHostCpuSec(): ReturnType<typeof parseCpuLine> {
  try {
    return parseCpuLine(Deno.readTextFileSync("/proc/stat"));
  } catch {
    return null;
  }
}

/** Microseconds some task has waited for a core since boot, or null without pressure accounting. */
export function readCpuStallUs(): number | null {
  try {
    const m = /^some .*total=(\d+)/m.exec(Deno.readTextFileSync("/proc/pressure/cpu"));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}
