/**
 * @module
 * Readers of `/proc/<pid>/` (stat, process tree, RSS, schedstat), the host's CPU (`/proc/stat`, PSI) and its
 * network counters (as `Prefix.Name`, e.g. `TcpExt.ListenOverflows`); null off Linux or for a process gone.
 */
import { readTextOrNull } from "./path_lookup.ts";

/** USER_HZ: `/proc` counts CPU time in these ticks on every architecture Deno runs on. */
const CLOCK_TICKS_PER_SEC = 100;

export function parseProcStat(line: string) {
  const close = line.lastIndexOf(")");
  if (close < 0) return null;
  // Index k is field k + 3.
  const f = line.slice(close + 2).split(" ");
  if (f.length < 20) return null;
  const tick = (i: number) => Number(f[i]) / CLOCK_TICKS_PER_SEC;
  return {
    state: f[0],
    pgrp: Number(f[2]),
    /** Clock ticks since boot (field 22): with the pid, names one process for good. */
    startTicks: Number(f[19]),
    userSec: tick(11),
    systemSec: tick(12),
    /** Reaped children (fields 16 and 17). */
    childrenUserSec: tick(13),
    childrenSystemSec: tick(14),
  };
}

export function readProcStat(pid: number | "self") {
  const text = readTextOrNull(`/proc/${pid}/stat`);
  return text === null ? null : parseProcStat(text);
}

/** `pid` and every process below it, parents first. */
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
      const children = readTextOrNull(`/proc/${tree[i]}/task/${task.name}/children`) ?? "";
      for (const child of children.split(" ")) if (child !== "") tree.push(Number(child));
    }
  }
  return tree;
}

/** CPU seconds of `pid`, of its `count` live descendants, and of those plus the children it reaped. */
export function treeCpu(pid: number) {
  const own = readProcStat(pid);
  if (own === null) return null;
  const below = processTree(pid).slice(1);
  let liveSec = 0;
  for (const p of below) {
    const stat = readProcStat(p);
    if (stat !== null) liveSec += stat.userSec + stat.systemSec;
  }
  const childrenSec = liveSec + own.childrenUserSec + own.childrenSystemSec;
  return { ownSec: own.userSec + own.systemSec, liveSec, childrenSec, count: below.length };
}

/** CPU seconds of `pid` and its live descendants (reaped children are left out). */
export function treeCpuSec(pid: number): number | null {
  const tree = treeCpu(pid);
  return tree === null ? null : tree.ownSec + tree.liveSec;
}

/** Seconds the main thread of `pid` waited in the run queue, and the times it got a core. */
export function readRunQueueWait(pid: number): { waitSec: number; slices: number } | null {
  const [, wait, slices] = (readTextOrNull(`/proc/${pid}/schedstat`) ?? "").split(" ").map(Number);
  return Number.isFinite(wait) ? { waitSec: wait / 1e9, slices } : null;
}

export function readProcSample(pid: number): { cpuSec: number; rssBytes: number } | null {
  const stat = readProcStat(pid);
  const rssKb = stat === null ? null : readRssKb(pid);
  return stat === null || rssKb === null
    ? null
    : { cpuSec: stat.userSec + stat.systemSec, rssBytes: rssKb * 1024 };
}

/** VmRSS of `pid` in KB (0 for a zombie). */
function readRssKb(pid: number): number | null {
  const status = readTextOrNull(`/proc/${pid}/status`);
  return status === null ? null : Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

/** Milliseconds this thread ran and waited in the run queue, and its `slices` on a core (schedstat). */
export function readThreadSchedMs(): { runMs: number; waitMs: number; slices?: number } | null {
  const [run, wait, slices] = (readTextOrNull("/proc/thread-self/schedstat") ?? "").split(" ");
  const runMs = Number(run) / 1e6, waitMs = Number(wait) / 1e6;
  if (!Number.isFinite(runMs) || !Number.isFinite(waitMs)) return null;
  return Number.isFinite(Number(slices)) ? { runMs, waitMs, slices: Number(slices) } : { runMs, waitMs };
}

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
  const text = readTextOrNull("/proc/stat");
  return text === null ? null : parseCpuLine(text);
}

/** Microseconds some task has waited for a core since boot (`some total`). */
export function readCpuStallUs(): number | null {
  const m = /^some .*total=(\d+)/m.exec(readTextOrNull("/proc/pressure/cpu") ?? "");
  return m ? Number(m[1]) : null;
}

export function parseProcNet(text: string, into: Map<string, number> = new Map()): Map<string, number> {
  const lines = text.split("\n");
  for (let i = 0; i + 1 < lines.length; i++) {
    const names = lines[i].trim().split(/\s+/);
    const values = lines[i + 1].trim().split(/\s+/);
    if (names[0] === values[0] && names[0].endsWith(":") && /^-?\d/.test(values[1] ?? "")) {
      const prefix = names[0].slice(0, -1);
      for (let k = 1; k < names.length; k++) into.set(`${prefix}.${names[k]}`, Number(values[k]));
      i++;
    }
  }
  return into;
}

export function readHostTcp(): Map<string, number> | null {
  const netstat = readTextOrNull("/proc/net/netstat"), snmp = readTextOrNull("/proc/net/snmp");
  return netstat === null || snmp === null ? null : parseProcNet(snmp, parseProcNet(netstat));
}
