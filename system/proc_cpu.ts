/**
 * @module
 * The host's CPU as Linux counts it: busy and total time of all cores since boot (`/proc/stat`) and
 * the time a runnable task waited for a core (`/proc/pressure/cpu`). Null where not readable.
 */
import { CLOCK_TICKS_PER_SEC } from "./proc_stat.ts";

/** Busy (not idle or iowait) and total CPU seconds of all cores since boot, and the `cpuN` line count. */
export function parseCpuLine(text: string): { busySec: number; totalSec: number; cores: number } | null {
  const line = text.split("\n").find((l) => l.startsWith("cpu "));
  if (line === undefined) return null;
  // user nice system idle iowait irq softirq steal (guest time is in user and nice).
  const f = line.trim().split(/\s+/).slice(1, 9).map(Number);
  if (f.length < 4 || f.some((x) => !Number.isFinite(x))) return null;
  const total = f.reduce((a, b) => a + b, 0);
  const idle = f[3] + (f[4] ?? 0);
  const cores = text.match(/^cpu\d+ /gm)?.length ?? 1;
  return { busySec: (total - idle) / CLOCK_TICKS_PER_SEC, totalSec: total / CLOCK_TICKS_PER_SEC, cores };
}

export function readHostCpuSec(): ReturnType<typeof parseCpuLine> {
  try {
    return parseCpuLine(Deno.readTextFileSync("/proc/stat"));
  } catch {
    return null;
  }
}

/** Microseconds some task has waited for a core since boot (`some total`). */
export function readCpuStallUs(): number | null {
  try {
    const m = /^some .*total=(\d+)/m.exec(Deno.readTextFileSync("/proc/pressure/cpu"));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}
