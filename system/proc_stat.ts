/**
 * @module
 * The one reader of `/proc/<pid>/stat`: the fields loadlab and its benches use (state, process group,
 * start time, CPU time of the process and of its reaped children), parsed from after the command name,
 * which may hold spaces and parentheses. Also the process tree under a pid
 * (`/proc/<pid>/task/<tid>/children`), so a target that forks workers (nginx's master and its workers) is
 * measured whole, and the samples a target's telemetry takes (`status` for RSS, `schedstat` for run-queue
 * wait), and a child's peak RSS over its run (`watchPeakRssKb`). Linux only: the readers return null
 * elsewhere, and for a process that is gone.
 */

/** USER_HZ: `/proc` counts CPU time in these ticks on every architecture Deno runs on. */
export const CLOCK_TICKS_PER_SEC = 100;

export interface ProcStat {
  /** R, S, D, Z, ... (field 3). */
  state: string;
  /** Process group (field 5). */
  pgrp: number;
  /** When it started, in clock ticks since boot (field 22): with the pid, names one process for good. */
  startTicks: number;
  /** CPU seconds of all its threads (fields 14 and 15). */
  userSec: number;
  systemSec: number;
  /** CPU seconds of its children it has reaped (fields 16 and 17). */
  childrenUserSec: number;
  childrenSystemSec: number;
}

/** Parses one `stat` line; null when it is not one. */
export function parseProcStat(line: string): ProcStat | null {
  const close = line.lastIndexOf(")");
  if (close < 0) return null;
  // Fields from the state (field 3) on: index k here is field k + 3.
  const f = line.slice(close + 2).split(" ");
  if (f.length < 20) return null;
  const tick = (i: number) => Number(f[i]) / CLOCK_TICKS_PER_SEC;
  return {
    state: f[0],
    pgrp: Number(f[2]),
    startTicks: Number(f[19]),
    userSec: tick(11),
    systemSec: tick(12),
    childrenUserSec: tick(13),
    childrenSystemSec: tick(14),
  };
}

/** `/proc/<pid>/stat` (or this process's), parsed; null when it cannot be read. */
export function readProcStat(pid: number | "self"): ProcStat | null {
  try {
    return parseProcStat(Deno.readTextFileSync(`/proc/${pid}/stat`));
  } catch {
    return null;
  }
}

/** `pid` and every process below it, parents first; just `[pid]` where the kernel does not list children. */
export function processTree(pid: number): number[] {
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    let tasks: Iterable<Deno.DirEntry>;
    try {
      tasks = Deno.readDirSync(`/proc/${tree[i]}/task`);
    } catch {
      continue; // gone meanwhile
    }
    for (const task of tasks) {
      let children = "";
      try {
        children = Deno.readTextFileSync(`/proc/${tree[i]}/task/${task.name}/children`);
      } catch {
        continue;
      }
      for (const child of children.split(" ")) if (child !== "") tree.push(Number(child));
    }
  }
  return tree;
}

/**
 * User + system CPU seconds of `pid` and the processes under it now (a child that exited and was reaped
 * counts in its parent's children fields, which this leaves out); null when `pid` cannot be read.
 */
export function treeCpuSec(pid: number): number | null {
  let sum = 0;
  for (const p of processTree(pid)) {
    const stat = readProcStat(p);
    if (stat === null) {
      if (p === pid) return null;
      continue;
    }
    sum += stat.userSec + stat.systemSec;
  }
  return sum;
}

/**
 * Seconds the main thread of `pid` (the event loop of a Node or Deno process) waited in the run queue for a
 * core, and the times it was put on one, from /proc/<pid>/schedstat; null where the kernel does not keep it.
 */
export function readRunQueueWait(pid: number): { waitSec: number; slices: number } | null {
  try {
    const [, wait, slices] = Deno.readTextFileSync(`/proc/${pid}/schedstat`).split(" ").map(Number);
    return Number.isFinite(wait) ? { waitSec: wait / 1e9, slices } : null;
  } catch {
    return null;
  }
}

/** utime + stime of `pid` in seconds and its RSS in bytes; null when /proc cannot tell (gone, not Linux). */
export function readProcSample(pid: number): { cpuSec: number; rssBytes: number } | null {
  const stat = readProcStat(pid);
  const rssKb = stat === null ? null : readRssKb(pid);
  return stat === null || rssKb === null
    ? null
    : { cpuSec: stat.userSec + stat.systemSec, rssBytes: rssKb * 1024 };
}

/** VmRSS of `pid` in KB (0 for a process without one: a zombie); null when /proc cannot tell. */
export function readRssKb(pid: number): number | null {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(Deno.readTextFileSync(`/proc/${pid}/status`))?.[1] ?? 0);
  } catch {
    return null;
  }
}

/**
 * Reads `pid`'s VmRSS every `everyMs` until `stop()`, which gives the highest seen in KB (0 when none was
 * read): a child's peak memory over its run, for the crowd bench and the crowd memory test.
 */
export function watchPeakRssKb(pid: number, everyMs: number): { stop(): number } {
  let peakKb = 0;
  const poll = setInterval(() => peakKb = Math.max(peakKb, readRssKb(pid) ?? 0), everyMs);
  return {
    stop() {
      clearInterval(poll);
      return peakKb;
    },
  };
}

/**
 * Milliseconds the calling thread has run on a core and waited in the run queue for one, and how many
 * times it was put on a core (`slices`), from `/proc/thread-self/schedstat` (a load worker's isolate is
 * its own thread, and sync reads run on it); null where the kernel does not keep it. The time it did
 * neither it slept: waiting for I/O or a timer.
 */
export function readThreadSchedMs(): { runMs: number; waitMs: number; slices?: number } | null {
  try {
    const [run, wait, slices] = Deno.readTextFileSync("/proc/thread-self/schedstat").split(" ");
    const runMs = Number(run) / 1e6, waitMs = Number(wait) / 1e6;
    if (!Number.isFinite(runMs) || !Number.isFinite(waitMs)) return null;
    return Number.isFinite(Number(slices)) ? { runMs, waitMs, slices: Number(slices) } : { runMs, waitMs };
  } catch {
    return null;
  }
}
